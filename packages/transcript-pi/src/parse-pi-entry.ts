/**
 * One line of a Pi session file (`~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl`, session format
 * v3, pi-coding-agent 0.73.1 docs/session-format.md), reduced to what the reader needs. Untrusted: any
 * field may be missing or of another type, and the line may belong to another agent.
 */
export type PiEntry =
  /** The header (first line): `{type:"session", version, id, cwd}`; not part of the entry tree. */
  | { readonly kind: 'header'; readonly sessionId?: string; readonly cwd?: string; readonly version?: number }
  /** A `message` entry: one `AgentMessage` in the tree (`id`/`parentId`). */
  | { readonly kind: 'message'; readonly id: string; readonly parentId: string | null; readonly timestamp?: string; readonly message: PiMessage }
  /** Any other tree entry (`model_change`, `compaction`, `custom`, `label`…): links the tree, holds no turn content. */
  | { readonly kind: 'bookkeeping'; readonly id: string; readonly parentId: string | null }
  /** A line of another agent's transcript. */
  | { readonly kind: 'foreign'; readonly agent: ForeignAgent }
  /** JSON the reader does not know. */
  | { readonly kind: 'unknown' };

/** The agents whose transcript lines are recognised as not Pi's. */
export type ForeignAgent = 'claude' | 'codex' | 'gemini';

/** The message roles the reader distinguishes (`AgentMessage` of pi-ai and pi-coding-agent). */
export type PiMessage =
  | { readonly role: 'user'; readonly text: string }
  | { readonly role: 'assistant'; readonly text: string; readonly toolCalls: readonly PiToolCall[]; readonly stopReason?: string; readonly model?: string; readonly usage?: PiUsage }
  | { readonly role: 'toolResult'; readonly toolCallId: string; readonly toolName?: string; readonly text: string; readonly isError: boolean; readonly timestamp?: string }
  /** `bashExecution` (a `!command` the user ran), `custom` (extension), summaries: context, never the agent's work or a prompt. */
  | { readonly role: 'other' };

/** A `toolCall` content block of an assistant message. */
export interface PiToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** `usage` of an assistant message (pi-ai `Usage`). */
export interface PiUsage {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** Classify one parsed JSON line. Never throws. */
export function parsePiEntry(raw: unknown): PiEntry {
  if (!isRecord(raw)) return { kind: 'unknown' };
  const type = raw['type'];
  if (type === 'session') {
    const version = raw['version'];
    return {
      kind: 'header',
      ...(typeof raw['id'] === 'string' ? { sessionId: raw['id'] } : {}),
      ...(typeof raw['cwd'] === 'string' ? { cwd: raw['cwd'] } : {}),
      ...(typeof version === 'number' ? { version } : {}),
    };
  }
  const foreign = foreignAgentOf(raw);
  if (foreign !== undefined) return { kind: 'foreign', agent: foreign };
  const id = raw['id'];
  const parentId = raw['parentId'];
  if (typeof type !== 'string' || typeof id !== 'string' || id === '' || (parentId !== null && typeof parentId !== 'string')) return { kind: 'unknown' };
  if (type !== 'message') return { kind: 'bookkeeping', id, parentId };
  const message = parseMessage(raw['message']);
  if (message === undefined) return { kind: 'unknown' };
  const timestamp = raw['timestamp'];
  return { kind: 'message', id, parentId, ...(typeof timestamp === 'string' ? { timestamp } : {}), message };
}

function parseMessage(raw: unknown): PiMessage | undefined {
  if (!isRecord(raw)) return undefined;
  switch (raw['role']) {
    case 'user': {
      const text = textOf(raw['content']);
      return text === undefined ? undefined : { role: 'user', text };
    }
    case 'assistant': {
      if (!Array.isArray(raw['content'])) return undefined;
      const usage = usageOf(raw['usage']);
      return {
        role: 'assistant',
        text: textOf(raw['content']) ?? '',
        toolCalls: raw['content'].flatMap((block): PiToolCall[] => {
          if (!isRecord(block) || block['type'] !== 'toolCall') return [];
          const { id, name } = block;
          if (typeof id !== 'string' || id === '' || typeof name !== 'string' || name === '') return [];
          return [{ id, name, arguments: isRecord(block['arguments']) ? block['arguments'] : {} }];
        }),
        ...(typeof raw['stopReason'] === 'string' ? { stopReason: raw['stopReason'] } : {}),
        ...(typeof raw['model'] === 'string' ? { model: raw['model'] } : {}),
        ...(usage !== undefined ? { usage } : {}),
      };
    }
    case 'toolResult': {
      const { toolCallId } = raw;
      if (typeof toolCallId !== 'string' || toolCallId === '') return undefined;
      const at = raw['timestamp'];
      return {
        role: 'toolResult',
        toolCallId,
        ...(typeof raw['toolName'] === 'string' ? { toolName: raw['toolName'] } : {}),
        text: textOf(raw['content']) ?? '',
        isError: raw['isError'] === true,
        ...(typeof at === 'number' && Number.isFinite(at) && Math.abs(at) < 8.64e15 ? { timestamp: new Date(at).toISOString() } : {}),
      };
    }
    case 'bashExecution':
    case 'custom':
    case 'branchSummary':
    case 'compactionSummary':
      return { role: 'other' };
    default:
      return undefined;
  }
}

/** `content` as text: a string, or the `text` blocks of a block array joined by newlines. */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .filter((block): block is { type: 'text'; text: string } => isRecord(block) && block['type'] === 'text' && typeof block['text'] === 'string')
    .map((block) => block.text)
    .join('\n');
}

function usageOf(raw: unknown): PiUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const count = (key: string): number | undefined => {
    const value = raw[key];
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  const input = count('input');
  if (input === undefined) return undefined;
  return { input, output: count('output') ?? 0, cacheRead: count('cacheRead') ?? 0, cacheWrite: count('cacheWrite') ?? 0 };
}

/**
 * Lines only another agent writes: Claude Code (`parentUuid`, or a `sessionId` on its bookkeeping
 * lines), Codex CLI rollouts (`{type, payload}`), Gemini CLI chat files (`sessionId` + `projectHash`
 * header, `type: "gemini"` messages, `$set` rewrites). Pi's own lines carry none of these keys.
 */
function foreignAgentOf(raw: Readonly<Record<string, unknown>>): ForeignAgent | undefined {
  const type = raw['type'];
  if (type === 'gemini' || '$set' in raw || '$rewindTo' in raw || (typeof raw['sessionId'] === 'string' && 'projectHash' in raw)) return 'gemini';
  if ('parentUuid' in raw || typeof raw['sessionId'] === 'string') return 'claude';
  if (typeof type === 'string' && 'payload' in raw) return 'codex';
  return undefined;
}

export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
