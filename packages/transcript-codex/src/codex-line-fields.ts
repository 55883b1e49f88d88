// Plain field readers and the rollout-line check shared by the full line parser (parse-codex-line.ts)
// and the usage-only one (parse-codex-usage-line.ts): no pattern library, so the monitor's bundle,
// which reads usage after every tool call, carries neither ts-pattern nor the tool-call parsing.

/** A JSON object of a rollout line. */
export type Obj = Record<string, unknown>;

/** Top-level line types of a Codex rollout (any version). */
const ROLLOUT_LINE_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state', 'token_usage_record']);
/** `response_item` payload types, which the earliest rollouts wrote unwrapped, one per line. */
const BARE_RESPONSE_ITEM_TYPES = new Set(['message', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'local_shell_call', 'reasoning', 'web_search_call']);

export function isRecord(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when a parsed JSON line has the shape of a Codex rollout line (used to reject other agents' files). */
export function isCodexRolloutLine(entry: unknown): boolean {
  if (!isRecord(entry) || typeof entry['type'] !== 'string') return false;
  if (ROLLOUT_LINE_TYPES.has(entry['type'])) return isRecord(entry['payload']);
  return BARE_RESPONSE_ITEM_TYPES.has(entry['type']) && entry['payload'] === undefined && !('message' in entry);
}

/** A rollout line's parts: its type (`response_item` for the earliest unwrapped lines), payload, payload type and record base. */
export interface RolloutLineParts {
  readonly lineType: string;
  readonly payload: Obj;
  readonly payloadType: string;
  readonly base: RecordBaseFields;
}

/** The fields every record of a line starts with. */
export interface RecordBaseFields {
  readonly offset: number;
  readonly timestamp?: string;
}

/** The parts of a line that passed {@link isCodexRolloutLine}. */
export function rolloutLineParts(line: Obj, offset: number): RolloutLineParts {
  const timestamp = str(line, 'timestamp');
  const wrapped = ROLLOUT_LINE_TYPES.has(line['type'] as string);
  const payload = (wrapped ? line['payload'] : line) as Obj;
  return {
    lineType: wrapped ? (line['type'] as string) : 'response_item',
    payload,
    payloadType: str(payload, 'type') ?? '',
    base: { offset, ...(timestamp !== undefined ? { timestamp } : {}) },
  };
}

export function str(source: Obj, key: string): string | undefined {
  const value = source[key];
  return typeof value === 'string' ? value : undefined;
}

export function num(source: Obj, key: string): number | undefined {
  const value = source[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function obj(source: Obj, key: string): Obj | undefined {
  const value = source[key];
  return isRecord(value) ? value : undefined;
}

/** `{ [key]: value }`, or nothing for an undefined or empty value. */
export function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined || value === '' ? {} : { [key]: value }) as { [P in K]?: V };
}

export function unixSecondsToIso(seconds: number): string | undefined {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
