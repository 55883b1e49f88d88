import { join } from 'node:path';
import { describeLatestUsageConformance, recordedTranscripts } from '@agent-checkpoint/core/conformance';
import { createQwenTranscriptReader } from './create-qwen-transcript-reader.ts';

// The shared readLatestUsage conformance suite (core), on generated files and every Qwen recording.
const fixtures = join(import.meta.dirname, '../../../fixtures');
const own = join(fixtures, 'qwen/0.24.4');

describeLatestUsageConformance({
  reader: createQwenTranscriptReader(),
  agent: 'qwen',
  // An assistant record with its model call's usage (0.24.4 shape).
  usageLine: (contextTokens, index) =>
    JSON.stringify({
      uuid: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      parentUuid: null,
      sessionId: '11111111-2222-4333-8444-555555555555',
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
      type: 'assistant',
      provenance: 'assistant_output',
      model: 'qwen-mock',
      message: { role: 'model', parts: [{ text: `answer ${index}` }] },
      usageMetadata: { promptTokenCount: contextTokens, candidatesTokenCount: 7, thoughtsTokenCount: 0, totalTokenCount: contextTokens + 7, cachedContentTokenCount: 0 },
      contextWindowSize: 131072,
    }),
  fixtures: [...recordedTranscripts(join(own, 'recorded')), join(own, 'subagent-background/projects/-WORK-repo/chats/00902d2d-778c-4b1d-93cb-7202ee64e663.jsonl')],
  foreignFixtures: recordedTranscripts(join(fixtures, 'claude/2.1.330/recorded')),
});
