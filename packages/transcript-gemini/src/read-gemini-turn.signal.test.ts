import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PREFIX, PROMPT, fixtureRecords, makeTempDir, read, toJsonl } from './gemini-test-support.ts';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => {
  temp.cleanup();
});

/**
 * The real 0.61 headless run, with the `hello-ok` shell result rewritten in the older full trailer
 * (every key printed on every call, `Signal: 0` or `Signal: (none)` when no signal killed it).
 */
function withTrailer(signal: string): string {
  const records = fixtureRecords('session-headless-deny-tools.jsonl').map((record) => {
    const calls = record['toolCalls'];
    if (!Array.isArray(calls)) return record;
    return {
      ...record,
      toolCalls: calls.map((call: { args?: { command?: string }; result: Array<{ functionResponse: { response: { output: string } } }> }) => {
        if (call.args?.command !== 'echo hello-ok') return call;
        const output = `Command: echo hello-ok\nDirectory: (root)\nOutput: hello-ok\nError: (none)\nExit Code: 0\nSignal: ${signal}\nBackground PIDs: (none)\nProcess Group PGID: 30917`;
        return { ...call, result: [{ functionResponse: { ...call.result[0]?.functionResponse, response: { output } } }] };
      }),
    };
  });
  return temp.write('session.jsonl', toJsonl(records));
}

describe('older shell trailers', () => {
  it.each(['0', '(none)'])('a shell result whose trailer says "Signal: %s" succeeded', (signal) => {
    const timeline = read(withTrailer(signal), { hint: { prompt: PROMPT }, checkpointPrefix: PREFIX });
    const call = timeline.calls.find((c) => c.kind === 'shell' && c.command === 'echo hello-ok');
    expect(call).toMatchObject({ outcome: 'success', exitCode: 0 });
  });

  it('a real signal still fails the call', () => {
    const timeline = read(withTrailer('SIGKILL'), { hint: { prompt: PROMPT }, checkpointPrefix: PREFIX });
    expect(timeline.calls.find((c) => c.kind === 'shell' && c.command === 'echo hello-ok')).toMatchObject({ outcome: 'error' });
  });
});
