import { join } from 'node:path';
import { describeLatestUsageConformance } from '@agent-checkpoint/core/conformance';
import fg from 'fast-glob';
import { createCodexTranscriptReader } from './create-codex-transcript-reader.ts';

// The shared readLatestUsage conformance suite (core), on generated files and every Codex recording.
const fixtures = join(import.meta.dirname, '../../../fixtures');

describeLatestUsageConformance({
  reader: createCodexTranscriptReader(),
  agent: 'codex',
  // A turn context naming the model, then the `token_count` event of one model call (0.169 shapes).
  usageLine: (contextTokens, index) => {
    const timestamp = new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString();
    const turnId = `turn-${index}`;
    const last = { input_tokens: contextTokens, cached_input_tokens: 0, output_tokens: 7, reasoning_output_tokens: 0, total_tokens: contextTokens + 7 };
    return [
      JSON.stringify({ timestamp, ordinal: index * 2, type: 'turn_context', payload: { turn_id: turnId, cwd: '/repo', model: 'gpt-5.5' } }),
      JSON.stringify({
        timestamp,
        ordinal: index * 2 + 1,
        type: 'event_msg',
        payload: { type: 'token_count', info: { total_token_usage: last, last_token_usage: last, model_context_window: 258400 }, rate_limits: null },
      }),
    ].join('\n');
  },
  fixtures: fg.sync('codex/*/**/*.jsonl', { cwd: fixtures, absolute: true, ignore: ['**/hook-payloads/**', '**/*.hook-payloads.jsonl', '**/*.notify*.jsonl'] }).sort(),
  foreignFixtures: [
    ...fg.sync('claude/2.1.330/recorded/*.jsonl', { cwd: fixtures, absolute: true, ignore: ['**/*.hook-payloads.jsonl'] }),
    ...fg.sync('gemini/0.61.0/recorded/*.jsonl', { cwd: fixtures, absolute: true, ignore: ['**/*.hook-payloads.jsonl'] }),
  ].sort(),
});
