import { join } from 'node:path';
import { describeTranscriptReaderConformance, recordedTranscripts, type RecordedEndOfTurnEvent } from '@agent-checkpoint/core/conformance';
import { createPiTranscriptReader } from './create-pi-transcript-reader.ts';

// The shared transcript-reader conformance suite (core), run on Pi 0.73.1's real recordings.
const fixtures = join(import.meta.dirname, '../../../fixtures');

describeTranscriptReaderConformance({
  reader: createPiTranscriptReader(),
  agent: 'pi',
  fixtures: { recordedDir: join(fixtures, 'pi/0.73.1/recorded') },
  foreignFixtures: [
    ...recordedTranscripts(join(fixtures, 'claude/2.1.330/recorded')).map((path) => ({ agent: 'claude' as const, path })),
    ...recordedTranscripts(join(fixtures, 'codex/0.169.0/recorded')).map((path) => ({ agent: 'codex' as const, path })),
    ...recordedTranscripts(join(fixtures, 'gemini/0.61.0/recorded')).map((path) => ({ agent: 'gemini' as const, path })),
  ],
  hintSources: [
    {
      // What the Pi extension sends the hook at the last turn_end (its `prompt`: the user's last input).
      name: 'Pi extension turn_end',
      fileSuffix: '.hook-payloads.jsonl',
      fires: 'every-stop',
      toHint: ({ payload }: RecordedEndOfTurnEvent) => (typeof payload['prompt'] === 'string' ? { prompt: payload['prompt'] } : {}),
    },
  ],
  // Pi 0.73.1 `-p` exits on SIGINT without recording a tool result or an aborted message: the call has no result.
  interruptedOutcome: 'pending',
  subagents: { unsupported: 'Pi 0.73 has no subagent tool: every call of a turn is in the one session file' },
  windows: { unsupported: 'no Pi session recorded on Windows; its shell tool is `bash` there too (Git Bash), lexed as sh' },
});
