import { join } from 'node:path';
import { describeLatestUsageConformance } from '@agent-checkpoint/core/conformance';
import fg from 'fast-glob';
import { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';

// The shared readLatestUsage conformance suite (core), on generated files and every Claude recording.
const fixtures = join(import.meta.dirname, '../../../fixtures');

describeLatestUsageConformance({
  reader: createClaudeTranscriptReader(),
  agent: 'claude',
  usageLine: (contextTokens, index) =>
    JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      message: {
        id: `msg_conformance_${index}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: `answer ${index}` }],
        // The three input counters add up to the context.
        usage: { input_tokens: contextTokens - Math.floor(contextTokens / 2), cache_read_input_tokens: Math.floor(contextTokens / 2), cache_creation_input_tokens: 0, output_tokens: 7 },
      },
      type: 'assistant',
      uuid: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
    }),
  fixtures: fg.sync('claude/*/**/*.{jsonl,json}', { cwd: fixtures, absolute: true, ignore: ['claude/foreign/**', '**/hook-payloads/**', '**/*.hook-payloads.jsonl'] }).sort(),
  foreignFixtures: fg.sync('claude/foreign/*.jsonl', { cwd: fixtures, absolute: true }).sort(),
});
