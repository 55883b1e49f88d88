import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES_DIR } from './recorded-payloads.ts';

/** One recorded context hook call: the agent's event name and the payload it wrote to stdin. */
export interface RecordedContextPayload {
  readonly event: string;
  /** Qwen's recordings: `tool-calls` (a turn with tool calls) or `stop-block` (a Stop hook blocked once). */
  readonly run?: string;
  readonly payload: Record<string, unknown>;
}

/**
 * The context hook payloads recorded with the real pinned CLI against the loopback mock
 * (`fixtures/<agent>/<version>/context-hooks/hook-payloads.jsonl`; paths `/WORK/repo`, `/WORK/home`).
 */
export function recordedContextPayloads(agent: 'copilot' | 'qwen'): RecordedContextPayload[] {
  const file = agent === 'copilot' ? 'copilot/1.0.102/context-hooks/hook-payloads.jsonl' : 'qwen/0.24.4/context-hooks/hook-payloads.jsonl';
  return readFileSync(join(FIXTURES_DIR, file), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as RecordedContextPayload);
}

/** The recorded payload of `event` (the `nth` one, from 0), or a thrown error naming what is missing. */
export function recordedContextPayload(agent: 'copilot' | 'qwen', event: string, nth = 0, run?: string): Record<string, unknown> {
  const found = recordedContextPayloads(agent).filter((r) => r.event === event && (run === undefined || r.run === run))[nth];
  if (found === undefined) throw new Error(`no recorded ${agent} ${event} payload #${nth}${run === undefined ? '' : ` of ${run}`}`);
  return found.payload;
}
