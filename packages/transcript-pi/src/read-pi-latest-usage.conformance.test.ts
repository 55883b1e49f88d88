import { join } from 'node:path';
import { describeLatestUsageConformance } from '@agent-checkpoint/core/conformance';
import fg from 'fast-glob';
import { createPiTranscriptReader } from './create-pi-transcript-reader.ts';

// The shared readLatestUsage conformance suite (core), on generated files and every Pi recording.
const fixtures = join(import.meta.dirname, '../../../fixtures');

describeLatestUsageConformance({
  reader: createPiTranscriptReader(),
  agent: 'pi',
  // An assistant `message` entry with its usage (session format v3).
  usageLine: (contextTokens, index) =>
    JSON.stringify({
      type: 'message',
      id: index.toString(16).padStart(8, '0'),
      parentId: index === 0 ? null : (index - 1).toString(16).padStart(8, '0'),
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: `answer ${index}` }],
        api: 'anthropic-messages',
        provider: 'mock',
        model: 'mock-model',
        usage: { input: contextTokens, output: 7, cacheRead: 0, cacheWrite: 0, totalTokens: contextTokens + 7, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: 'stop',
        timestamp: Date.UTC(2026, 0, 1, 0, 0, index),
      },
    }),
  fixtures: fg.sync('pi/*/recorded/*.jsonl', { cwd: fixtures, absolute: true, ignore: ['**/*.hook-payloads.jsonl', '**/*.model-requests.jsonl'] }).sort(),
  foreignFixtures: [
    ...fg.sync('gemini/0.61.0/recorded/fail-fix-pass.jsonl', { cwd: fixtures, absolute: true }),
  ],
});
