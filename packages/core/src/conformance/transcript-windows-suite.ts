import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentId } from '../agent-id.ts';
import { toRepoPath } from '../engine/normalize-path.ts';
import { parseShellCommand } from '../shell/parse-shell-command.ts';
import type { ToolCall, ToolKind, ToolOutcome } from '../timeline/tool-call.ts';
import type { TranscriptReader, TurnHint } from '../transcript/transcript-reader.ts';
import { createTempFiles } from './transcript-generated-inputs.ts';
import { timelineViolations } from './transcript-timeline-invariants.ts';

/**
 * Windows sessions of a reader: the cases it must pass, or why its agent has none recorded (a
 * reason is required: "not yet" must be said, not implied).
 */
export type WindowsConformance = { readonly cases: readonly WindowsConformanceCase[] } | { readonly unsupported: string };

/**
 * One turn an agent ran on Windows: its shell tool (Claude's `PowerShell`, Codex's
 * `powershell.exe -Command` argv) and the Windows paths of its tool inputs.
 */
export interface WindowsConformanceCase {
  readonly name: string;
  /** The transcript (a fixture file). */
  readonly transcript: string;
  /**
   * Read the transcript as it stood when the turn ended: its first `endLine` lines (for a turn of a
   * longer real session whose format has no turn ids to ask for it by).
   */
  readonly endLine?: number;
  readonly hint?: TurnHint;
  /** The repository root as the hook would see it on that machine (`C:\Users\…\repo`). */
  readonly repositoryRoot: string;
  /** The calls of the turn, in order. */
  readonly expected: readonly ExpectedWindowsCall[];
}

/** One expected call of a {@link WindowsConformanceCase}. */
export interface ExpectedWindowsCall {
  readonly rawName: string;
  readonly kind: ToolKind;
  readonly outcome: ToolOutcome;
  /** Shell calls: the command text, its exit code (`null`: none recorded) and its language. */
  readonly command?: string;
  readonly exitCode?: number | null;
  readonly dialect?: 'powershell';
  /** The programs core's parser finds in a shell call's command, in order (checks the dialect's quoting end to end). */
  readonly programs?: readonly string[];
  /** File calls: the named paths resolved against the root and the timeline's cwd by core's path handling. */
  readonly repoPaths?: readonly (string | null)[];
}

/** What the suite compares: a call reduced to the facts above. */
function view(call: ToolCall, root: string, cwd: string, want: ExpectedWindowsCall): ExpectedWindowsCall {
  return {
    rawName: call.rawName,
    kind: call.kind,
    outcome: call.outcome,
    ...(call.kind === 'shell'
      ? {
          command: call.command,
          exitCode: call.exitCode ?? null,
          ...(call.dialect === undefined ? {} : { dialect: call.dialect }),
          ...(want.programs === undefined ? {} : { programs: parseShellCommand(call.command, call.dialect ?? 'sh').map((s) => s.program) }),
        }
      : {}),
    ...(want.repoPaths === undefined ? {} : { repoPaths: call.paths.map((p) => toRepoPath(p, { root, cwd }) ?? null) }),
  };
}

/**
 * Register the Windows checks (inside the reader's conformance `describe`): each case's turn has
 * exactly the expected calls, its shell calls are `shell` with their command, exit code and dialect,
 * and the Windows paths of its file calls land inside the repository.
 */
export function describeWindowsConformance(reader: TranscriptReader, agent: AgentId, prefix: string, windows: WindowsConformance): void {
  describe('Windows sessions (PowerShell, Windows paths)', () => {
    // oxlint-disable-next-line vitest/no-conditional-tests -- an agent without a Windows recording gets one skipped test saying why
    if ('unsupported' in windows) {
      // oxlint-disable-next-line vitest/no-disabled-tests -- see above: the report shows the skip and why
      it.skip(`not checked: ${windows.unsupported}`, () => undefined);
      return;
    }
    const temp = createTempFiles(`ac-windows-conformance-${agent}`);
    afterAll(() => temp.cleanup());
    for (const testCase of windows.cases) {
      it(testCase.name, async () => {
        const transcriptPath =
          testCase.endLine === undefined
            ? testCase.transcript
            : temp.write('turn.jsonl', readFileSync(testCase.transcript, 'utf8').split('\n').slice(0, testCase.endLine).join('\n') + '\n');
        const timeline = await reader.readTurn({
          transcriptPath,
          checkpointPrefix: prefix,
          ...(testCase.hint ? { hint: testCase.hint } : {}),
        });
        expect(timelineViolations(timeline, { agent })).toEqual([]);
        expect(timeline.hasData, JSON.stringify(timeline.diagnostics)).toBe(true);
        const cwd = timeline.cwd ?? testCase.repositoryRoot;
        const calls = timeline.calls.map((call, i) => view(call, testCase.repositoryRoot, cwd, testCase.expected[i] ?? ({} as ExpectedWindowsCall)));
        expect(calls).toEqual(testCase.expected);
      });
    }
  });
}
