import { join } from 'node:path';
import { describeLatestUsageConformance } from '@agent-checkpoint/core/conformance';
import fg from 'fast-glob';
import { createGeminiTranscriptReader } from './create-gemini-transcript-reader.ts';
import { SNIFF_BYTES } from './sniff-gemini-file.ts';

// The shared readLatestUsage conformance suite (core), on generated files and every Gemini recording.
const fixtures = join(import.meta.dirname, '../../../fixtures');

describeLatestUsageConformance({
  reader: createGeminiTranscriptReader(),
  agent: 'gemini',
  // A `gemini` message record with its tokens (0.61 JSONL shape).
  usageLine: (contextTokens, index) =>
    JSON.stringify({
      id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
      type: 'gemini',
      content: `answer ${index}`,
      thoughts: [],
      tokens: { input: contextTokens, output: 7, cached: 0, thoughts: 0, tool: 0, total: contextTokens + 7 },
      model: 'gemini-2.5-flash',
    }),
  // The format sniff of a file within the cap (sniff-gemini-file.ts).
  headBytes: SNIFF_BYTES,
  fixtures: fg.sync('gemini/*/**/*.{jsonl,json}', { cwd: fixtures, absolute: true, ignore: ['gemini/foreign/**', '**/hook-payloads/**', '**/*.hook-payloads.jsonl'] }).sort(),
  foreignFixtures: fg.sync('gemini/foreign/*.jsonl', { cwd: fixtures, absolute: true }).sort(),
});
