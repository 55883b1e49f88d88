import type { TurnContextRecord, TurnStartRecord, UsageRecord } from './codex-record.ts';
import { isCodexRolloutLine, num, obj, opt, rolloutLineParts, str, unixSecondsToIso, type Obj, type RecordBaseFields } from './codex-line-fields.ts';

/** The records the newest-usage reader needs: usage, the turn start (window) and the turn context (model). */
export type CodexUsageLineRecord = UsageRecord | TurnStartRecord | TurnContextRecord;

/**
 * The usage, turn-start and turn-context records of one rollout line, built by the same functions
 * `parseCodexLine` uses for them (so the two cannot disagree), without its pattern matching and tool
 * parsing: the monitor reads usage after every tool call. Any other line gives no record.
 */
export function parseCodexUsageLine(entry: unknown, offset: number): CodexUsageLineRecord[] {
  if (!isCodexRolloutLine(entry)) return [];
  const { lineType, payload, payloadType, base } = rolloutLineParts(entry as Obj, offset);
  switch (lineType) {
    case 'turn_context':
      return [turnContextRecord(payload, base)];
    case 'token_usage_record':
      return tokenUsageRecord(payload, base);
    case 'event_msg':
      switch (payloadType) {
        case 'task_started':
        case 'turn_started':
          return [turnStartRecord(payload, base)];
        case 'thread_settings_applied':
          return threadSettingsRecord(payload, base);
        case 'token_count':
          return tokenCountRecord(payload, base);
        default:
          return [];
      }
    default:
      return [];
  }
}

const turnOf = (payload: Obj): { turnId?: string } => opt('turnId', str(payload, 'turn_id'));

/** `turn_context`: the turn's cwd and model. */
export function turnContextRecord(payload: Obj, base: RecordBaseFields): TurnContextRecord {
  return { type: 'turn-context', ...base, ...turnOf(payload), ...opt('cwd', str(payload, 'cwd')), ...opt('model', str(payload, 'model')) };
}

/** `token_usage_record` (written as a response ends): its input tokens, when present. */
export function tokenUsageRecord(payload: Obj, base: RecordBaseFields): UsageRecord[] {
  const usage = obj(payload, 'usage');
  const input = usage ? num(usage, 'input_tokens') : undefined;
  if (input === undefined) return [];
  return [{ type: 'usage', source: 'token_usage_record', ...base, ...turnOf(payload), contextTokens: input, ...opt('outputTokens', usage ? num(usage, 'output_tokens') : undefined) }];
}

/** `event_msg task_started` / `turn_started`: the turn's start, root turn and window. */
export function turnStartRecord(payload: Obj, base: RecordBaseFields): TurnStartRecord {
  const startedAt = num(payload, 'started_at');
  const attribution = obj(payload, 'turn_attribution');
  const rootTurnId = str(payload, 'root_turn_id') ?? (attribution ? str(attribution, 'root_turn_id') : undefined);
  return {
    type: 'turn-start',
    ...base,
    ...turnOf(payload),
    ...opt('rootTurnId', rootTurnId),
    ...opt('startedAt', startedAt !== undefined ? unixSecondsToIso(startedAt) : undefined),
    ...opt('contextWindow', num(payload, 'model_context_window')),
  };
}

/** `event_msg thread_settings_applied`: cwd and model, as a turn context. */
export function threadSettingsRecord(payload: Obj, base: RecordBaseFields): TurnContextRecord[] {
  const settings = obj(payload, 'thread_settings');
  if (!settings) return [];
  return [{ type: 'turn-context', ...base, ...opt('cwd', str(settings, 'cwd')), ...opt('model', str(settings, 'model')) }];
}

/** `event_msg token_count`: the last response's input tokens and the window. */
export function tokenCountRecord(payload: Obj, base: RecordBaseFields): UsageRecord[] {
  const info = obj(payload, 'info');
  const last = info ? obj(info, 'last_token_usage') : undefined;
  const input = last ? num(last, 'input_tokens') : undefined;
  if (input === undefined) return [];
  return [
    {
      type: 'usage',
      source: 'token_count',
      ...base,
      ...turnOf(payload),
      contextTokens: input,
      ...opt('outputTokens', last ? num(last, 'output_tokens') : undefined),
      ...opt('contextWindow', info ? num(info, 'model_context_window') : undefined),
    },
  ];
}
