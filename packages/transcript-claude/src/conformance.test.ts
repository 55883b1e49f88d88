import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeTranscriptReaderConformance, recordedTranscripts, type RecordedEndOfTurnEvent } from '@agent-checkpoint/core/conformance';
import fg from 'fast-glob';
import { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';

// The shared transcript-reader conformance suite (core), run on Claude Code's real recordings.
const fixtures = join(import.meta.dirname, '../../../fixtures');
const own = (pattern: string): string[] => fg.sync(pattern, { cwd: join(fixtures, 'claude/2.1.330'), absolute: true }).sort();

describeTranscriptReaderConformance({
  reader: createClaudeTranscriptReader(),
  agent: 'claude',
  fixtures: {
    recordedDir: join(fixtures, 'claude/2.1.330/recorded'),
    // Hand-recorded sessions (blocks, subagents, compaction, TUI prompts): contract checks only.
    extra: own('*.jsonl'),
  },
  foreignFixtures: [
    ...recordedTranscripts(join(fixtures, 'gemini/0.61.0/recorded')).map((path) => ({ agent: 'gemini' as const, path })),
    ...recordedTranscripts(join(fixtures, 'codex/0.169.0/recorded')).map((path) => ({ agent: 'codex' as const, path })),
  ],
  // The real 2.1.330 recordings of a foreground and a background Agent call, with the subagents' own
  // transcripts where Claude writes them (<session>/subagents/agent-<id>.jsonl).
  subagents: {
    cases: [
      {
        name: 'foreground Agent call',
        ...session('subagent-foreground', 'a20f94b6eebc13214'),
        expected: [
          { rawName: 'Agent', by: 'main' },
          { rawName: 'Bash', command: 'ls -a && false', by: { subagent: 'a20f94b6eebc13214' } },
          { rawName: 'Bash', command: 'echo checkpoint-ok', by: 'main' },
        ],
      },
      {
        name: 'background Agent call, still running at Stop',
        ...session('subagent-background', 'a45c5977fba3e5deb'),
        hint: { turnId: 'e9db129e-b064-4339-b5f6-29f73a123135' },
        expected: [
          { rawName: 'Agent', by: 'main' },
          { rawName: 'Bash', command: 'echo checkpoint-ok', by: 'main' },
          { rawName: 'Bash', command: 'ls -a', by: { subagent: 'a45c5977fba3e5deb' } },
        ],
      },
    ],
  },
  // SIGINT during a Bash call: the tool_result is `is_error` "The user doesn't want to proceed…", no exit code.
  interruptedOutcome: 'error',
  hintSources: [
    {
      // What delivery-hook passes for a Claude `Stop` payload.
      name: 'Stop hook',
      fileSuffix: '.hook-payloads.jsonl',
      fires: 'every-stop',
      toHint: ({ payload }: RecordedEndOfTurnEvent) => ({
        ...(typeof payload['prompt_id'] === 'string' ? { turnId: payload['prompt_id'] } : {}),
        ...(typeof payload['last_assistant_message'] === 'string' ? { lastAssistantMessage: payload['last_assistant_message'] } : {}),
      }),
    },
  ],
});

/** A recorded session's main transcript and its one subagent transcript, as the suite's files. */
function session(name: string, agentId: string): { files: Record<string, Buffer>; transcript: string; subagentFiles: string[] } {
  const transcript = `${name}.jsonl`;
  const subagent = `${name}/subagents/agent-${agentId}.jsonl`;
  const root = join(fixtures, 'claude/2.1.330');
  return {
    files: { [transcript]: readFileSync(join(root, transcript)), [subagent]: readFileSync(join(root, subagent)) },
    transcript,
    subagentFiles: [subagent],
  };
}
