import { join } from 'node:path';
import { describeTranscriptReaderConformance, recordedTranscripts, type RecordedEndOfTurnEvent } from '@agent-checkpoint/core/conformance';
import fg from 'fast-glob';
import { createGeminiTranscriptReader } from './create-gemini-transcript-reader.ts';
import { AGENT, geminiSubagentSession } from './gemini-subagent-session.ts';

// The shared transcript-reader conformance suite (core), run on Gemini CLI's real recordings.
const fixtures = join(import.meta.dirname, '../../../fixtures');
const own = (pattern: string): string[] => fg.sync(pattern, { cwd: join(fixtures, 'gemini/0.61.0'), absolute: true }).sort();

describeTranscriptReaderConformance({
  reader: createGeminiTranscriptReader(),
  agent: 'gemini',
  fixtures: {
    recordedDir: join(fixtures, 'gemini/0.61.0/recorded'),
    // Hand-recorded sessions (headless, tmux) and the documented derived shapes ($set rewrite,
    // $rewindTo); the legacy single-document `.json` is not line-based and stays with the reader's tests.
    extra: own('*.jsonl'),
  },
  foreignFixtures: [
    ...recordedTranscripts(join(fixtures, 'claude/2.1.330/recorded')).map((path) => ({ agent: 'claude' as const, path })),
    ...recordedTranscripts(join(fixtures, 'codex/0.169.0/recorded')).map((path) => ({ agent: 'codex' as const, path })),
  ],
  hintSources: [
    {
      // What delivery-hook passes for a Gemini `AfterAgent` payload.
      name: 'AfterAgent hook',
      fileSuffix: '.hook-payloads.jsonl',
      fires: 'every-stop',
      toHint: ({ payload }: RecordedEndOfTurnEvent) => (typeof payload['prompt'] === 'string' ? { prompt: payload['prompt'] } : {}),
    },
  ],
  // No 0.61 run with a subagent was recorded: the session is written from the CLI's source
  // (ChatRecordingService kind "subagent", recordCompletedToolCalls' agentId), in the recorded shapes.
  subagents: {
    cases: [
      {
        name: 'generalist subagent edits and restarts',
        ...geminiSubagentSession({ restart: true }),
        hint: { prompt: 'Please do the task.' },
        expected: [
          { rawName: 'run_shell_command', command: 'git status', by: 'main' },
          { rawName: 'replace', by: { subagent: AGENT } },
          { rawName: 'run_shell_command', command: 'make restart', by: { subagent: AGENT } },
          { rawName: 'complete_task', by: { subagent: AGENT } },
          { rawName: 'generalist', by: 'main' },
        ],
      },
    ],
  },
  windows: {
    unsupported:
      'no Gemini CLI session recorded on Windows, and no public licensed one was found; its shell tool (run_shell_command) is mapped like on POSIX, and core lexes its commands as sh',
  },
  deviations: {
    interruptedCallNotRecorded:
      'Gemini CLI 0.61 exits at once on SIGINT: the model message is kept with empty content and no toolCalls, so the interrupted call is not in the recording at all',
  },
});
