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
  // Claude Code on Windows: the PowerShell tool and Windows paths. No public licensed Windows
  // transcript was found, so this session is constructed from real 2.1.330 entries with the
  // PowerShell tool's documented shapes (fixtures/claude/2.1.330/README.md, "Derived fixtures").
  windows: {
    cases: [
      {
        name: 'PowerShell tool on Windows (constructed from real 2.1.330 entries)',
        transcript: join(fixtures, 'claude/2.1.330/derived/powershell-windows.jsonl'),
        repositoryRoot: 'C:/Users/user/repo',
        expected: [
          { rawName: 'PowerShell', kind: 'shell', outcome: 'success', command: 'Get-ChildItem -Name src', exitCode: 0, dialect: 'powershell' },
          {
            rawName: 'PowerShell',
            kind: 'shell',
            outcome: 'error',
            command: 'Set-Location C:\\Users\\user\\repo\\web; npm test; if ($LASTEXITCODE -ne 0) { exit 1 }',
            exitCode: 1,
            dialect: 'powershell',
            programs: ['Set-Location', 'npm', '$LASTEXITCODE', 'exit'],
          },
          { rawName: 'Read', kind: 'read', outcome: 'success', repoPaths: ['web/src/app.ts'] },
          { rawName: 'Edit', kind: 'edit', outcome: 'success', repoPaths: ['web/src/app.ts'] },
          { rawName: 'Write', kind: 'write', outcome: 'success', repoPaths: ['NOTES.md'] },
          { rawName: 'PowerShell', kind: 'shell', outcome: 'success', command: 'Set-Location C:\\Users\\user\\repo\\web; npm test', exitCode: 0, dialect: 'powershell' },
          {
            rawName: 'PowerShell',
            kind: 'shell',
            outcome: 'success',
            command: 'Remove-Item -Force -Recurse .\\web\\dist -ErrorAction SilentlyContinue',
            exitCode: 0,
            dialect: 'powershell',
            programs: ['Remove-Item'],
          },
          { rawName: 'PowerShell', kind: 'shell', outcome: 'error', command: 'Restart-Service -Name WebApp', exitCode: null, dialect: 'powershell' },
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
