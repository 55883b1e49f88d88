import { join } from 'node:path';
import { describeTranscriptReaderConformance, recordedTranscripts } from '@agent-checkpoint/core/conformance';
import { createCopilotTranscriptReader } from './create-copilot-transcript-reader.ts';

// The shared conformance suites (core), run on Copilot CLI 1.0.102's real recordings.
const fixtures = join(import.meta.dirname, '../../../fixtures');
const own = join(fixtures, 'copilot/1.0.102');

describeTranscriptReaderConformance({
  reader: createCopilotTranscriptReader(),
  agent: 'copilot',
  fixtures: { recordedDir: join(own, 'recorded'), extra: [join(own, 'subagent-task.jsonl')] },
  foreignFixtures: [
    ...recordedTranscripts(join(fixtures, 'claude/2.1.330/recorded')).map((path) => ({ agent: 'claude' as const, path })),
    ...recordedTranscripts(join(fixtures, 'gemini/0.61.0/recorded')).map((path) => ({ agent: 'gemini' as const, path })),
    ...recordedTranscripts(join(fixtures, 'codex/0.169.0/recorded')).map((path) => ({ agent: 'codex' as const, path })),
  ],
  hintSources: [
    {
      // The agentStop payload names no turn, prompt or final text: the reader finds the turn alone.
      name: 'agentStop hook',
      fileSuffix: '.hook-payloads.jsonl',
      fires: 'every-stop',
      toHint: () => ({}),
    },
  ],
  subagents: {
    unsupported:
      "Copilot CLI 1.0.102 writes a `task` subagent's events into the parent's own events.jsonl (marked by parentToolCallId), not into files of their own; read-copilot-turn.test.ts checks them on the recorded subagent-task.jsonl",
  },
  windows: { unsupported: 'no Copilot CLI session recorded on Windows, and no public one was found; its powershell tool is mapped as a PowerShell shell call' },
});
