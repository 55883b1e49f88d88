import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeTranscriptReaderConformance, recordedTranscripts, type RecordedEndOfTurnEvent } from '@agent-checkpoint/core/conformance';
import fg from 'fast-glob';
import { SUBAGENT_RUNS, subagentRun } from './codex-fixtures.ts';
import { createCodexTranscriptReader } from './create-codex-transcript-reader.ts';

// The shared transcript-reader conformance suite (core), run on Codex CLI's real recordings.
const fixtures = join(import.meta.dirname, '../../../fixtures');
const own = (pattern: string): string[] => fg.sync(pattern, { cwd: join(fixtures, 'codex/0.169.0'), absolute: true }).sort();

/** The TUI's hidden title-generation thread fires notify like a turn; the tmux route ignores it. */
const TITLE_THREAD_PROMPT = 'Generate a concise, single-line task title';

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

describeTranscriptReaderConformance({
  reader: createCodexTranscriptReader(),
  agent: 'codex',
  fixtures: {
    recordedDir: join(fixtures, 'codex/0.169.0/recorded'),
    // Hand-recorded rollouts (exec, tmux, TUI interrupt, steer and injection, code mode), and the
    // constructed 0.144-form code-mode rollout: contract checks only.
    extra: [...own('*/rollout-*.jsonl'), ...fg.sync('codex/0.144.2/constructed/rollout-*.jsonl', { cwd: fixtures, absolute: true }).sort()],
  },
  foreignFixtures: [
    ...recordedTranscripts(join(fixtures, 'claude/2.1.330/recorded')).map((path) => ({ agent: 'claude' as const, path })),
    ...recordedTranscripts(join(fixtures, 'gemini/0.61.0/recorded')).map((path) => ({ agent: 'gemini' as const, path })),
  ],
  // Codex 0.169 multi-agent (code mode): the parent's spawn_agent starts a subagent thread with a
  // rollout of its own next to the parent's; its cells' nested calls are the parent turn's work.
  subagents: {
    cases: [
      ...(['restarts', 'no-restart'] as const).map((name) => {
        const run = subagentRun(name);
        const read = (rel: string): string => readFileSync(join(run.dir, rel), 'utf8');
        const by = { subagent: SUBAGENT_RUNS[name].child };
        return {
          name: `recorded 0.169 spawn_agent run (${name})`,
          files: { [run.parent]: read(run.parent), [run.child]: read(run.child) },
          transcript: run.parent,
          subagentFiles: [run.child],
          hint: { turnId: SUBAGENT_RUNS[name].turn },
          expected: [
            { rawName: 'spawn_agent', by: 'main' as const },
            { rawName: 'wait_agent', by: 'main' as const },
            { rawName: 'exec', by },
            { rawName: 'CommandExecution', command: 'cat daemon/server.mjs', by },
            { rawName: 'exec', by },
            { rawName: 'FileChange', by },
            ...(name === 'restarts'
              ? [
                  { rawName: 'exec', by },
                  { rawName: 'CommandExecution', command: 'make restart', by },
                ]
              : [
                  // After the Stop hook's block, the parent restarts from a cell of its own.
                  { rawName: 'exec', by: 'main' as const },
                  { rawName: 'CommandExecution', command: 'make restart', by: 'main' as const },
                ]),
          ],
        };
      }),
      (() => {
        // A followup_task in the parent's second turn: the subagent's second turn is that turn's work.
        const rel = (thread: string): string => `sessions/2026/11/28/rollout-2026-11-28T05-42-16-${thread}.jsonl`;
        const [parent, child] = [rel('01a220ac-f8b5-7922-9324-528bd9384ff0'), rel('01a220ac-f981-77f0-946a-2854a305e41e')];
        const read = (path: string): string => readFileSync(join(fixtures, 'codex/0.169.0/subagent/followup', path), 'utf8');
        const by = { subagent: '01a220ac-f981-77f0-946a-2854a305e41e' };
        return {
          name: 'recorded 0.169 followup_task run',
          files: { [parent]: read(parent), [child]: read(child) },
          transcript: parent,
          subagentFiles: [child],
          hint: { turnId: '01a220ac-fc7b-77b3-92e6-6f3addfda58e' },
          expected: [
            { rawName: 'followup_task', by: 'main' as const },
            { rawName: 'wait_agent', by: 'main' as const },
            { rawName: 'exec', by },
            { rawName: 'FileChange', by },
          ],
        };
      })(),
    ],
  },
  // Esc in the TUI during exec_command: the output is "aborted by user", no exit code (nothing proves it ran).
  interruptedOutcome: 'pending',
  hintSources: [
    {
      // What delivery-hook passes for a Codex `Stop` payload.
      name: 'Stop hook',
      fileSuffix: '.hook-payloads.jsonl',
      fires: 'every-stop',
      toHint: ({ payload }: RecordedEndOfTurnEvent) => ({
        ...(typeof payload['turn_id'] === 'string' ? { turnId: payload['turn_id'] } : {}),
        ...(typeof payload['last_assistant_message'] === 'string' ? { lastAssistantMessage: payload['last_assistant_message'] } : {}),
      }),
    },
    {
      // What delivery-tmux passes for an `agent-turn-complete` notification.
      name: 'notify',
      fileSuffix: '.notify-payloads.jsonl',
      fires: 'turn-complete',
      toHint: ({ payload }: RecordedEndOfTurnEvent) => {
        const inputs = strings(payload['input-messages']);
        if (inputs[0]?.startsWith(TITLE_THREAD_PROMPT)) return undefined;
        const lastInput = inputs.at(-1);
        const last = payload['last-assistant-message'];
        return {
          ...(typeof payload['turn-id'] === 'string' ? { turnId: payload['turn-id'] } : {}),
          ...(lastInput !== undefined ? { prompt: lastInput } : {}),
          ...(typeof last === 'string' ? { lastAssistantMessage: last } : {}),
        };
      },
    },
  ],
  // A real Codex 0.40.0 session on Windows from the public corpus (Python-AI-Solutions/agentic-neurodata-conversion,
  // MIT): the shell tool runs `powershell.exe -NoProfile -Command …`; its first turn, as the rollout stood when it ended.
  windows: {
    cases: [
      {
        name: 'powershell.exe -Command calls of a real 0.40.0 Windows rollout',
        transcript: join(fixtures, 'codex/0.40.0/public/rollout-2025-09-26T17-01-04-019985ca-7ef7-7580-a921-c20ac619f40b.jsonl'),
        endLine: 25,
        repositoryRoot: 'C:\\Users\\shahh\\OneDrive\\Desktop\\agentic-neurodata-conversion-2',
        expected: [
          { rawName: 'shell', kind: 'shell', outcome: 'success', command: 'Get-ChildItem', exitCode: 0, dialect: 'powershell' },
          { rawName: 'shell', kind: 'shell', outcome: 'error', command: 'rg --files | rg speckit', exitCode: 1, dialect: 'powershell', programs: ['rg', 'rg'] },
          { rawName: 'shell', kind: 'shell', outcome: 'error', command: 'rg "specify"', exitCode: null, dialect: 'powershell', programs: ['rg'] },
        ],
      },
    ],
  },
});
