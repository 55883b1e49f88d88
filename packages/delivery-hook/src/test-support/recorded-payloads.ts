import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's `fixtures/` directory (real CLI recordings, owned by the transcript packages). */
export const FIXTURES_DIR = join(import.meta.dirname, '..', '..', '..', '..', 'fixtures');

const RECORDED = {
  'claude-stop-first': ['claude/2.1.330/hook-payloads/stop-first.record.json', 'record'],
  'claude-stop-after-block': ['claude/2.1.330/hook-payloads/stop-after-block-active.record.json', 'record'],
  'claude-stop-with-background-task': ['claude/2.1.330/hook-payloads/stop-with-background-task.record.json', 'record'],
  'gemini-after-agent-first': ['gemini/0.61.0/hook-payloads/hook-input-AfterAgent-1st.json', 'raw'],
  'gemini-after-agent-after-deny-text-only': ['gemini/0.61.0/hook-payloads/hook-input-AfterAgent-2nd-after-deny-text-only.json', 'raw'],
  'gemini-after-agent-after-deny-with-tool-calls': [
    'gemini/0.61.0/hook-payloads/hook-input-AfterAgent-2nd-after-deny-with-tool-calls.json',
    'raw',
  ],
  'gemini-before-agent': ['gemini/0.61.0/hook-payloads/hook-input-BeforeAgent.json', 'raw'],
} as const;

/** A recorded payload object: Claude records wrap it in `{payload}`, Gemini files are the payload. */
export function recordedPayload(name: keyof typeof RECORDED): Record<string, unknown> {
  const [path, kind] = RECORDED[name];
  const json = JSON.parse(readFileSync(join(FIXTURES_DIR, path), 'utf8')) as Record<string, unknown>;
  return (kind === 'record' ? json['payload'] : json) as Record<string, unknown>;
}

/** {@link recordedPayload} as the text an agent writes to stdin. */
export function fixturePayload(name: keyof typeof RECORDED): string {
  return JSON.stringify(recordedPayload(name));
}

/** The Stop payloads of the recorded `codex exec` run (first stop, then the stop after our block). */
export function codexStopPayloads(): Array<Record<string, unknown>> {
  const lines = readFileSync(join(FIXTURES_DIR, 'codex/0.169.0/exec/hooks.jsonl'), 'utf8').split('\n').filter(Boolean);
  return lines
    .map((line) => (JSON.parse(line) as { payload: Record<string, unknown> }).payload)
    .filter((payload) => payload['hook_event_name'] === 'Stop');
}
