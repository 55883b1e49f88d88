import { asArray, asRecord, stringField, xmlUnescape } from './json-access.ts';
import { countRuns, type ConversationView } from './select-step.ts';

/** What the mock reads from a Codex `POST /v1/responses` request. */
export interface ResponsesRequestInfo {
  readonly view: ConversationView;
  readonly model: string;
  /** The TUI's title generator (`x-codex-turn-metadata.thread_source == "thread_title"`). */
  readonly isTitleRequest: boolean;
  /** Function tools as `function:<name>`, custom tools as `custom:<name>`. */
  readonly toolNames: readonly string[];
}

/**
 * Ids the mock puts on every item it emits for step `i` contain `_s<i>_` (see
 * `encode-responses-reply.ts`). Codex keeps `call_id` and message `id` verbatim in later requests,
 * so the highest marker tells how many steps were answered, even when parallel calls and their
 * outputs interleave in `input`.
 */
export const STEP_MARKER = /_s(\d+)_/;

const MODEL_ITEM_TYPES = new Set(['function_call', 'custom_tool_call', 'reasoning', 'local_shell_call']);

export function readResponsesRequest(body: unknown, headers: Readonly<Record<string, string | string[] | undefined>>): ResponsesRequestInfo {
  const record = asRecord(body);
  const input = asArray(record?.['input']);
  return {
    view: { priorModelTurns: priorModelTurns(input), lastUserText: lastUserText(input), firstUserText: firstUserText(input) },
    model: stringField(body, 'model') ?? 'gpt-mock',
    isTitleRequest: isTitleRequest(headers),
    toolNames: [...asArray(record?.['tools']), ...additionalTools(input)].flatMap(toolNames),
  };
}

/**
 * The tools of a "responses lite" request (code-mode catalog models): no `tools` field, the first
 * `input` item is `{"type":"additional_tools","tools":[{"type":"namespace","name":"functions","tools":[…]}…]}`.
 */
function additionalTools(input: readonly unknown[]): unknown[] {
  return input.filter((item) => stringField(item, 'type') === 'additional_tools').flatMap((item) => asArray(asRecord(item)?.['tools']));
}

/** `function:<name>` / `custom:<name>`; a namespace's tools by their own names (a function when untyped). */
function toolNames(tool: unknown): string[] {
  const type = stringField(tool, 'type');
  if (type === 'namespace') return asArray(asRecord(tool)?.['tools']).flatMap((inner) => toolNames(stringField(inner, 'type') === undefined ? { ...asRecord(inner), type: 'function' } : inner));
  return [`${type ?? ''}:${stringField(tool, 'name') ?? ''}`];
}

function isModelItem(item: unknown): boolean {
  const type = stringField(item, 'type');
  if (type === undefined) return false;
  if (MODEL_ITEM_TYPES.has(type)) return true;
  return type === 'message' && stringField(item, 'role') === 'assistant';
}

function priorModelTurns(input: readonly unknown[]): number {
  let highest = -1;
  for (const item of input) {
    if (!isModelItem(item)) continue;
    for (const id of [stringField(item, 'call_id'), stringField(item, 'id')]) {
      const match = id === undefined ? null : STEP_MARKER.exec(id);
      if (match?.[1] !== undefined) highest = Math.max(highest, Number(match[1]));
    }
  }
  // Without markers (history not produced by this mock), fall back to counting response runs.
  return highest >= 0 ? highest + 1 : countRuns(input, isModelItem);
}

const HOOK_PROMPT = /^<hook_prompt\b[^>]*>([\s\S]*)<\/hook_prompt>$/;
const INJECTED_PREFIXES = ['<environment_context>', '# AGENTS.md instructions', '<turn_aborted>', '<user_instructions>'];

function lastUserText(input: readonly unknown[]): string | undefined {
  for (let i = input.length - 1; i >= 0; i -= 1) {
    const item = input[i];
    if (stringField(item, 'type') !== 'message' || stringField(item, 'role') !== 'user') continue;
    const texts = asArray(asRecord(item)?.['content'])
      .map((part) => stringField(part, 'text'))
      .filter((text): text is string => text !== undefined);
    for (let j = texts.length - 1; j >= 0; j -= 1) {
      const text = texts[j] ?? '';
      const hook = HOOK_PROMPT.exec(text);
      if (hook?.[1] !== undefined) return xmlUnescape(hook[1]);
      if (INJECTED_PREFIXES.some((prefix) => text.startsWith(prefix))) continue;
      return text;
    }
  }
  return undefined;
}

/**
 * The text that opened the conversation: its first user message that is not injected context. A
 * Codex subagent's conversation opens instead with an `agent_message` from its parent (`Message Type:
 * NEW_TASK` header, then the task `spawn_agent` was given, as `encrypted_content`, which holds the
 * plain text when the model wrote it so, as this mock does): that task.
 */
function firstUserText(input: readonly unknown[]): string | undefined {
  for (const item of input) {
    if (stringField(item, 'type') === 'agent_message') {
      const payload = asArray(asRecord(item)?.['content'])
        .map((part) => stringField(part, 'encrypted_content') ?? (stringField(part, 'type') === 'input_text' ? undefined : stringField(part, 'text')))
        .filter((text): text is string => text !== undefined);
      if (payload.length > 0) return payload.join('');
      continue;
    }
    if (stringField(item, 'type') !== 'message' || stringField(item, 'role') !== 'user') continue;
    const texts = asArray(asRecord(item)?.['content'])
      .map((part) => stringField(part, 'text'))
      .filter((text): text is string => text !== undefined);
    const text = texts.find((t) => !INJECTED_PREFIXES.some((prefix) => t.startsWith(prefix)) && !HOOK_PROMPT.test(t));
    if (text !== undefined) return text;
  }
  return undefined;
}

function isTitleRequest(headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  const raw = headers['x-codex-turn-metadata'];
  if (typeof raw !== 'string') return false;
  try {
    return stringField(JSON.parse(raw), 'thread_source') === 'thread_title';
  } catch {
    return false;
  }
}
