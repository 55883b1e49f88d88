import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describeTranscriptReaderConformance, recordedTranscripts, type RecordedEndOfTurnEvent } from '@agent-checkpoint/core/conformance';
import { createQwenTranscriptReader } from './create-qwen-transcript-reader.ts';

// The shared transcript-reader conformance suite (core), run on Qwen Code 0.24.4's real recordings.
const fixtures = join(import.meta.dirname, '../../../fixtures');
const own = join(fixtures, 'qwen/0.24.4');
// A session recorded with the real CLI: the main agent starts a background `agent` subagent (fixtures/qwen/0.24.4/subagent-background).
const background = join(own, 'subagent-background');
const session = '00902d2d-778c-4b1d-93cb-7202ee64e663';
const mainFile = join(background, 'projects/-WORK-repo/chats', `${session}.jsonl`);
const subagentFile = join(background, 'projects/-WORK-repo/subagents', session, 'agent-general-purpose-call_e2e_s1_0_r2.jsonl');
const file = (path: string): [string, string] => [relative(background, path), readFileSync(path, 'utf8')];

describeTranscriptReaderConformance({
  reader: createQwenTranscriptReader(),
  agent: 'qwen',
  fixtures: { recordedDir: join(own, 'recorded'), extra: [mainFile] },
  foreignFixtures: [
    ...recordedTranscripts(join(fixtures, 'claude/2.1.330/recorded')).map((path) => ({ agent: 'claude' as const, path })),
    ...recordedTranscripts(join(fixtures, 'gemini/0.61.0/recorded')).map((path) => ({ agent: 'gemini' as const, path })),
    ...recordedTranscripts(join(fixtures, 'codex/0.169.0/recorded')).map((path) => ({ agent: 'codex' as const, path })),
  ],
  hintSources: [
    {
      // What delivery-hook passes for a Qwen `Stop` payload (qwen-profile.ts).
      name: 'Stop hook',
      fileSuffix: '.hook-payloads.jsonl',
      fires: 'every-stop',
      toHint: ({ payload }: RecordedEndOfTurnEvent) => ({
        ...(typeof payload['prompt_id'] === 'string' ? { turnId: payload['prompt_id'] } : {}),
        ...(typeof payload['last_assistant_message'] === 'string' ? { lastAssistantMessage: payload['last_assistant_message'] } : {}),
      }),
    },
  ],
  deviations: {
    unreadEditRefused:
      'Qwen Code 0.24.4 refuses `edit` of a file its process has not read with read_file ("has not been read in this session"), also after `--resume`: edit-without-read and second-turn record the edit as an error result',
    blockReasonNotRecorded: 'Qwen Code 0.24.4 sends the Stop block reason to the model but never writes it to the chat file',
  },
  interruptedOutcome: 'error',
  subagents: {
    cases: [
      {
        name: 'a background general-purpose subagent reads, edits and tests',
        files: Object.fromEntries([file(mainFile), file(subagentFile)]),
        transcript: relative(background, mainFile),
        subagentFiles: [relative(background, subagentFile)],
        expected: [
          { rawName: 'run_shell_command', command: 'git status --short', by: 'main' },
          { rawName: 'agent', by: 'main' },
          { rawName: 'read_file', by: { subagent: 'general-purpose-call_e2e_s1_0_r2' } },
          { rawName: 'edit', by: { subagent: 'general-purpose-call_e2e_s1_0_r2' } },
          { rawName: 'run_shell_command', command: 'node calc.test.mjs', by: { subagent: 'general-purpose-call_e2e_s1_0_r2' } },
        ],
      },
    ],
  },
  windows: { unsupported: 'no Qwen Code session recorded on Windows, and no public one was found; its shell tool (run_shell_command) is mapped like on POSIX' },
});
