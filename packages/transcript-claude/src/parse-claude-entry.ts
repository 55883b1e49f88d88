import { isMatching, match, P } from 'ts-pattern';
import { parseClaudeUsage, type ClaudeUsage } from './parse-claude-usage.ts';

/**
 * The parts of one Claude Code transcript line this package uses, already narrowed from raw JSON.
 * Anything the reader does not need (attachments other than queued prompts, system entries, field
 * soup such as `permissionDecision`) is reduced to `chain`: it is on the conversation chain but
 * carries no turn information.
 */
export type ClaudeEntry = ClaudeUserEntry | ClaudeAssistantEntry | ClaudeQueuedPromptEntry | ClaudeChainEntry;

/** What every chain entry (a line with a `uuid`) records. */
export interface ClaudeEntryBase {
  readonly uuid: string;
  readonly timestamp?: string;
  readonly cwd?: string;
  /** CLI version that wrote the entry (`"2.1.330"`). */
  readonly version?: string;
}

/** A `type:"user"` entry: a prompt, tool results, hook feedback, a command echo, a compact summary… */
export interface ClaudeUserEntry extends ClaudeEntryBase {
  readonly kind: 'user';
  /** Claude's turn id (the Stop payload's `prompt_id`); on prompts, tool results and hook feedback. */
  readonly promptId?: string;
  readonly isMeta: boolean;
  readonly isCompactSummary: boolean;
  readonly isVisibleInTranscriptOnly: boolean;
  /** `sdk` (`-p`), `typed` (TUI), `system` (task notification). Present on 2.1.330 prompts only. */
  readonly promptSource?: string;
  /** `sdk`, `human`, `task_notification`. Present on 2.1.330 prompts only. */
  readonly turnOrigin?: string;
  /** The message text: string content, or its `text` blocks joined with newlines. */
  readonly text?: string;
  readonly toolResults: readonly ClaudeToolResult[];
  /**
   * Set by the reader: whether the text is one of our delivered checkpoints (a digest the session
   * recorded, or without a record the whole structure of a composed message: core's
   * `isDeliveredCheckpoint`). Undefined (direct callers) → the checkpoint prefix decides.
   */
  readonly ours?: boolean;
}

/** A `type:"assistant"` entry. Claude writes one entry per content block of a response. */
export interface ClaudeAssistantEntry extends ClaudeEntryBase {
  readonly kind: 'assistant';
  /** The API message id, shared by all entries of one response (usage is deduplicated by it). */
  readonly messageId?: string;
  readonly model?: string;
  readonly usage?: ClaudeUsage;
  /** Text blocks of this entry joined with newlines; undefined when the entry has none. */
  readonly text?: string;
  readonly toolUses: readonly ClaudeToolUse[];
  /**
   * Results of server tools (`server_tool_use`), which the provider writes into the same response
   * as `<tool>_tool_result` blocks (`web_search_tool_result`, `web_fetch_tool_result`…). Absent when none.
   */
  readonly serverToolResults?: readonly ClaudeToolResult[];
}

/** A prompt the user typed while the model was working (`attachment.type:"queued_command"`). */
export interface ClaudeQueuedPromptEntry extends ClaudeEntryBase {
  readonly kind: 'queued-prompt';
  readonly text: string;
}

/** Any other chain entry (`system`, other attachments, unknown types with a `uuid`). */
export interface ClaudeChainEntry extends ClaudeEntryBase {
  readonly kind: 'chain';
}

/** A `tool_use` block (or a server-side `server_tool_use`). */
export interface ClaudeToolUse {
  readonly id: string;
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** `server` for a `server_tool_use` block (run by the provider, not by Claude Code); absent for `tool_use`. */
  readonly side?: 'server';
}

/** A `tool_result` block, paired to its call by `toolUseId`. */
export interface ClaudeToolResult {
  readonly toolUseId: string;
  /** `is_error: true`. A missing key means success (Write/Edit/Read omit it). */
  readonly isError: boolean;
  /** The result content as text; undefined when the block has no content. */
  readonly text?: string;
  /**
   * The subagent an Agent/Task call started or resumed: the entry's `toolUseResult.agentId`
   * (foreground and background alike) when the entry holds this one result, or else the
   * `agentId: <id>` line of a background launch text.
   */
  readonly agentId?: string;
  /** `toolUseResult.agentType` next to that id (`general-purpose`…). */
  readonly agentType?: string;
}


/** Result of looking at one raw line. */
export type ParsedLine =
  | { readonly kind: 'entry'; readonly entry: ClaudeEntry }
  /** A Claude line the reader deliberately ignores: bookkeeping (no `uuid`) or a sidechain entry. */
  | { readonly kind: 'ignored-claude' }
  /** Valid JSON that does not look like a Claude Code transcript line at all. */
  | { readonly kind: 'foreign' };

/**
 * Bookkeeping line types written by Claude Code 2.1.x next to the conversation chain. They carry no
 * `uuid`; knowing their names lets the reader tell "a Claude file with no turn" from "another agent's
 * file".
 */
export const CLAUDE_BOOKKEEPING_TYPES: ReadonlySet<string> = new Set([
  'queue-operation',
  'last-prompt',
  'atis-latch',
  'tools-used',
  'api-request-shape',
  'api-request-blob',
  'api-request',
  'cost-state',
  'mode',
  'permission-mode',
  'file-history-snapshot',
  'file-history-delta',
  'summary',
  'custom-title',
  'tag',
]);

const CHAIN_TYPES: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'attachment']);

const objectRecord = P.when((value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value),
);

/** Options of {@link parseClaudeLine}. */
export interface ParseClaudeLineOptions {
  /**
   * Keep sidechain entries (`isSidechain:true`). A main transcript ignores them (they are not the
   * main agent's turn); a subagent's own transcript consists of nothing else.
   */
  readonly keepSidechain?: boolean;
}

/** Narrow one parsed JSON line. Total: never throws, whatever the input. */
export function parseClaudeLine(raw: unknown, options: ParseClaudeLineOptions = {}): ParsedLine {
  if (!isMatching(objectRecord, raw)) return { kind: 'foreign' };
  const uuid = raw['uuid'];
  const type = raw['type'];
  if (typeof uuid !== 'string' || uuid.length === 0) {
    return typeof type === 'string' && (CLAUDE_BOOKKEEPING_TYPES.has(type) || isClaudeBookkeepingShape(raw))
      ? { kind: 'ignored-claude' }
      : { kind: 'foreign' };
  }
  if (typeof type !== 'string') return { kind: 'foreign' };
  // Subagent work lives in its own file; older versions interleaved it in the main file. Either
  // way it is not the main agent's turn.
  if (raw['isSidechain'] === true && options.keepSidechain !== true) return { kind: 'ignored-claude' };
  const base = readBase(uuid, raw);
  const entry = match(raw)
    .returnType<ClaudeEntry | undefined>()
    .with({ type: 'user', message: { content: P.union(P.string, P.array()) } }, (user) =>
      parseUser(base, user, user.message.content),
    )
    .with({ type: 'assistant', message: { content: P.array() } }, (assistant) =>
      parseAssistant(base, assistant.message, assistant.message.content),
    )
    .with({ type: 'attachment', attachment: { type: 'queued_command', prompt: P.string } }, (queued) => ({
      kind: 'queued-prompt',
      ...base,
      text: queued.attachment.prompt,
    }))
    .otherwise(() => (CHAIN_TYPES.has(type) || typeof raw['parentUuid'] !== 'undefined' ? { kind: 'chain', ...base } : undefined));
  return entry ? { kind: 'entry', entry } : { kind: 'foreign' };
}

/** Claude bookkeeping lines carry the session id and no `payload` (Codex) or `$set` (Gemini). */
function isClaudeBookkeepingShape(raw: Record<string, unknown>): boolean {
  return typeof raw['sessionId'] === 'string' && !('payload' in raw) && !('$set' in raw);
}

function readBase(uuid: string, raw: Record<string, unknown>): ClaudeEntryBase {
  return {
    uuid,
    ...optionalString('timestamp', raw['timestamp']),
    ...optionalString('cwd', raw['cwd']),
    ...optionalString('version', raw['version']),
  };
}

function parseUser(base: ClaudeEntryBase, raw: Record<string, unknown>, content: string | unknown[]): ClaudeUserEntry {
  const toolResults: ClaudeToolResult[] = [];
  let text: string | undefined;
  if (typeof content === 'string') {
    text = content;
  } else {
    const texts: string[] = [];
    for (const block of content) {
      match(block)
        .with({ type: 'tool_result', tool_use_id: P.string, content: P.optional(P.any), is_error: P.optional(P.any) }, (result) => {
          const resultText = contentText(result.content);
          toolResults.push({
            toolUseId: result.tool_use_id,
            isError: result.is_error === true,
            ...(resultText === undefined ? {} : { text: resultText }),
          });
        })
        .with({ type: 'text', text: P.string }, (block) => {
          texts.push(block.text);
        })
        .otherwise(() => undefined);
    }
    if (texts.length > 0) text = texts.join('\n');
  }
  // The entry-level `toolUseResult` belongs to the entry's single result; several results in one
  // entry keep only what their own text says (a background launch's `agentId:` line).
  const entryResult = toolResults.length === 1 ? raw['toolUseResult'] : undefined;
  for (const [index, result] of toolResults.entries()) toolResults[index] = { ...result, ...subagentOfResult(entryResult, result.text) };
  return {
    kind: 'user',
    ...base,
    ...optionalString('promptId', raw['promptId']),
    isMeta: raw['isMeta'] === true,
    isCompactSummary: raw['isCompactSummary'] === true,
    isVisibleInTranscriptOnly: raw['isVisibleInTranscriptOnly'] === true,
    ...optionalString('promptSource', raw['promptSource']),
    ...optionalString('turnOrigin', raw['turnOrigin']),
    ...(text === undefined ? {} : { text }),
    toolResults,
  };
}

/** Shape of a subagent id as Claude writes it (`a45c5977fba3e5deb`); anything else is not used as a file name. */
export const SUBAGENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
/** The id line of a background launch result: `agentId: a45c5977fba3e5deb (internal ID …)`. */
const LAUNCH_AGENT_ID_LINE = /^agentId: ([A-Za-z0-9_-]{1,128})(?:\s|$)/m;

function subagentOfResult(toolUseResult: unknown, text: string | undefined): { agentId?: string; agentType?: string } {
  if (isMatching(objectRecord, toolUseResult)) {
    const agentId = toolUseResult['agentId'];
    if (typeof agentId === 'string' && SUBAGENT_ID_PATTERN.test(agentId)) {
      const agentType = toolUseResult['agentType'];
      return { agentId, ...(typeof agentType === 'string' && agentType.length > 0 ? { agentType } : {}) };
    }
  }
  const launched = text === undefined ? undefined : LAUNCH_AGENT_ID_LINE.exec(text)?.[1];
  return launched === undefined ? {} : { agentId: launched };
}

function parseAssistant(base: ClaudeEntryBase, message: Record<string, unknown>, content: unknown[]): ClaudeAssistantEntry {
  const toolUses: ClaudeToolUse[] = [];
  const serverToolResults: ClaudeToolResult[] = [];
  const texts: string[] = [];
  for (const block of content) {
    match(block)
      .with({ type: P.union('tool_use', 'server_tool_use'), id: P.string, name: P.string, input: P.optional(P.any) }, (use) => {
        if (use.id.length === 0) return;
        const input = isMatching(objectRecord, use.input) ? use.input : {};
        toolUses.push({ id: use.id, name: use.name, input, ...(use.type === 'server_tool_use' ? { side: 'server' as const } : {}) });
      })
      .with({ type: 'text', text: P.string }, (block) => {
        texts.push(block.text);
      })
      .with({ type: P.string.endsWith('_tool_result'), tool_use_id: P.string, content: P.optional(P.any) }, (result) => {
        // A failed server tool's content is an `…_tool_result_error` object with an `error_code`.
        const failed = isMatching({ type: P.string.endsWith('_error') }, result.content) || isMatching({ error_code: P.any }, result.content);
        const text = contentText(result.content);
        serverToolResults.push({ toolUseId: result.tool_use_id, isError: failed, ...(text === undefined ? {} : { text }) });
      })
      .otherwise(() => undefined);
  }
  const usage = parseClaudeUsage(message['usage']);
  return {
    kind: 'assistant',
    ...base,
    ...optionalString('messageId', message['id']),
    ...optionalString('model', message['model']),
    ...(usage ? { usage } : {}),
    ...(texts.length > 0 ? { text: texts.join('\n') } : {}),
    toolUses,
    ...(serverToolResults.length > 0 ? { serverToolResults } : {}),
  };
}

/**
 * Text of a `tool_result` content: a string as-is, or the `text` blocks of an array joined with
 * newlines (images and other blocks are named, never stringified as a JS or JSON repr).
 */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const block of content) {
    match(block)
      .with({ type: 'text', text: P.string }, (block) => {
        parts.push(block.text);
      })
      .with({ type: P.string }, (block) => {
        parts.push(`[${block.type}]`);
      })
      .otherwise(() => undefined);
  }
  return parts.length > 0 ? parts.join('\n') : undefined;
}

function optionalString<K extends string>(key: K, value: unknown): { [P in K]?: string } {
  return (typeof value === 'string' ? { [key]: value } : {}) as { [P in K]?: string };
}

/**
 * Best guess of which other agent wrote a line that is not Claude's, for the `wrong-agent`
 * diagnostic: Codex rollouts wrap everything in `{timestamp, type, payload}`; Gemini session files
 * start with `{sessionId, projectHash, …}` and append messages `{id, type:"user"|"gemini"|…}` or
 * `$set`/`$rewindTo` records.
 */
export function guessForeignAgent(raw: unknown): 'codex' | 'gemini' | undefined {
  return match(raw)
    .returnType<'codex' | 'gemini' | undefined>()
    .with({ type: P.string, payload: objectRecord }, () => 'codex')
    .with(P.union({ $set: P.nonNullable }, { $rewindTo: P.nonNullable }, { projectHash: P.string }), () => 'gemini')
    .with({ id: P.string, type: P.union('user', 'gemini', 'info', 'error', 'warning') }, () => 'gemini')
    .otherwise(() => undefined);
}
