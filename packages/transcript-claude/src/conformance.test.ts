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
