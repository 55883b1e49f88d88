import { join } from 'node:path';
import { describeLatestUsageConformance, recordedTranscripts } from '@agent-checkpoint/core/conformance';
import { createCopilotTranscriptReader } from './create-copilot-transcript-reader.ts';

// The shared readLatestUsage conformance suite (core), on generated files and every Copilot recording.
const fixtures = join(import.meta.dirname, '../../../fixtures');
const own = join(fixtures, 'copilot/1.0.102');

describeLatestUsageConformance({
  reader: createCopilotTranscriptReader(),
  agent: 'copilot',
  // A `session.usage_record` event of the main agent (1.0.102 shape).
  usageLine: (contextTokens, index) =>
    JSON.stringify({
      type: 'session.usage_record',
      data: { usage: { model: 'claude-sonnet-4.5', inputTokens: contextTokens, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0, initiator: 'agent' } },
      id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
      parentId: null,
    }),
  fixtures: [...recordedTranscripts(join(own, 'recorded')), join(own, 'subagent-task.jsonl')],
  foreignFixtures: recordedTranscripts(join(fixtures, 'claude/2.1.330/recorded')),
});
