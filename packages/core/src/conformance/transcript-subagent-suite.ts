import { appendFileSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentId } from '../agent-id.ts';
import type { ToolCall } from '../timeline/tool-call.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import type { ReadTurnRequest, TranscriptReader, TurnHint } from '../transcript/transcript-reader.ts';
import { createTempFiles } from './transcript-generated-inputs.ts';
import { timelineViolations } from './transcript-timeline-invariants.ts';

/**
 * Subagent support of a reader: the cases it must pass, or why its agent has no subagent
 * transcripts to read (a reason is required: "not yet" must be said, not implied).
 */
export type SubagentConformance =
  | { readonly cases: readonly SubagentConformanceCase[] }
  | { readonly unsupported: string };

/**
 * One session whose turn delegated work to subagents that recorded their calls in transcripts of
 * their own. The files are written into a temp dir with the given relative layout (the CLI's own:
 * the reader finds the subagent files from the main transcript's path).
 */
export interface SubagentConformanceCase {
  readonly name: string;
  /** Every file of the session, by path relative to the session root. */
  readonly files: Readonly<Record<string, string | Uint8Array>>;
  /** The main transcript, one of `files`. */
  readonly transcript: string;
  /** The subagent transcripts, each one of `files` (the suite removes, corrupts and symlinks them). */
  readonly subagentFiles: readonly string[];
  readonly hint?: TurnHint;
  /**
   * The calls of the turn in time order: the native name, the command of a shell call, and who made
   * it (`main`, or the subagent's id).
   */
  readonly expected: readonly ExpectedSubagentTurnCall[];
}

/** One expected call of a {@link SubagentConformanceCase}. */
export interface ExpectedSubagentTurnCall {
  readonly rawName: string;
  readonly command?: string;
  readonly by: 'main' | { readonly subagent: string };
}

/** What the suite compares: a call reduced to name, command and origin. */
function view(call: ToolCall): ExpectedSubagentTurnCall {
  return {
    rawName: call.rawName,
    ...(call.kind === 'shell' ? { command: call.command } : {}),
    by: call.origin === undefined ? 'main' : { subagent: call.origin.agentId },
  };
}

/**
 * Register the subagent checks (inside the reader's conformance `describe`): for each case, the
 * subagents' calls are in the turn, in time order and marked with their origin; and with each
 * subagent transcript missing, corrupt, or replaced by a symbolic link, the reader still returns the
 * main agent's calls with a diagnostic, never a throw and never a call read through the link.
 */
export function describeSubagentConformance(reader: TranscriptReader, agent: AgentId, prefix: string, subagents: SubagentConformance): void {
  describe('subagent transcripts', () => {
    // oxlint-disable-next-line vitest/no-conditional-tests -- an agent without subagent transcripts gets one skipped test saying why
    if ('unsupported' in subagents) {
      // oxlint-disable-next-line vitest/no-disabled-tests -- see above: the report shows the skip and why
      it.skip(`not read: ${subagents.unsupported}`, () => undefined);
      return;
    }
    const read = async (label: string, request: ReadTurnRequest): Promise<TurnTimeline> => {
      const timeline = await reader.readTurn(request);
      const violations = timelineViolations(timeline, { agent });
      if (violations.length > 0) throw new Error(`${label}: invalid timeline:\n- ${violations.join('\n- ')}`);
      return timeline;
    };
    for (const testCase of subagents.cases) {
      const setUp = (): { root: string; request: ReadTurnRequest; cleanup: () => void } => {
        const temp = createTempFiles(`ac-subagent-conformance-${agent}`);
        for (const [path, content] of Object.entries(testCase.files)) {
          mkdirSync(dirname(join(temp.dir, path)), { recursive: true });
          writeFileSync(join(temp.dir, path), content);
        }
        const request: ReadTurnRequest = {
          transcriptPath: join(temp.dir, testCase.transcript),
          checkpointPrefix: prefix,
          flushWaitMs: 0,
          ...(testCase.hint ? { hint: testCase.hint } : {}),
        };
        return { root: temp.dir, request, cleanup: temp.cleanup };
      };
      const mainOnly = testCase.expected.filter((call) => call.by === 'main');

      it(`${testCase.name}: the subagents' calls are the turn's, in time order, marked with their origin`, async () => {
        const { request, cleanup } = setUp();
        try {
          const timeline = await read(testCase.name, request);
          expect(timeline.calls.map(view)).toEqual(testCase.expected);
          expect(timeline.truncated).toBe(false);
        } finally {
          cleanup();
        }
      });

      it(`${testCase.name}: a missing, corrupt or symlinked subagent transcript gives the main calls and a diagnostic, never a throw`, async () => {
        const { root, request, cleanup } = setUp();
        try {
          for (const file of testCase.subagentFiles) rmSync(join(root, file));
          const missing = await read(`${testCase.name} without subagent files`, request);
          expect(missing.calls.map(view), 'subagent files missing').toEqual(mainOnly);
          expect(missing.diagnostics.length, 'subagent files missing: a diagnostic').toBeGreaterThan(0);

          for (const file of testCase.subagentFiles) {
            const outside = join(root, `outside-${file.replace(/[^A-Za-z0-9._-]/g, '_')}`);
            writeFileSync(outside, testCase.files[file] ?? '');
            symlinkSync(outside, join(root, file));
          }
          const linked = await read(`${testCase.name} with symlinked subagent files`, request);
          expect(linked.calls.map(view), 'a symlinked subagent file is never read').toEqual(mainOnly);
          expect(linked.diagnostics.length, 'symlinked subagent files: a diagnostic').toBeGreaterThan(0);

          for (const file of testCase.subagentFiles) {
            rmSync(join(root, file));
            writeFileSync(join(root, file), testCase.files[file] ?? '');
            appendFileSync(join(root, file), Buffer.from([0x7b, 0x22, 0x00, 0xff, 0xfe, 0x0a, 0x5b, 0x31, 0x2c, 0x0a]));
          }
          const corrupt = await read(`${testCase.name} with corrupt lines in the subagent files`, request);
          expect(corrupt.calls.map(view), 'corrupt lines are skipped, the valid ones count').toEqual(testCase.expected);

          // The folder holding the subagent files, replaced by a link to a copy elsewhere.
          const folders = new Set(testCase.subagentFiles.map((file) => dirname(file)));
          const [folder] = folders;
          if (folders.size === 1 && folder !== undefined && folder !== '.') {
            renameSync(join(root, folder), join(root, `${folder}-moved`));
            symlinkSync(join(root, `${folder}-moved`), join(root, folder));
            const linkedFolder = await read(`${testCase.name} with a symlinked subagent folder`, request);
            expect(linkedFolder.calls.map(view), 'nothing is read through a symlinked folder').toEqual(mainOnly);
            expect(linkedFolder.diagnostics.length, 'symlinked folder: a diagnostic').toBeGreaterThan(0);
          }
        } finally {
          cleanup();
        }
      });
    }
  });
}
