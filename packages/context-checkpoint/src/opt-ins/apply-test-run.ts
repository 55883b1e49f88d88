import { type AttributedFile, type CheckpointResult, gapSentence, globMatcher, matchesEvidence, parseShellCommand, type RequiredAction, type ResolvedConfig } from '@agent-checkpoint/core';
import type { ResolvedRunTestsConfig } from '../config/context-config.ts';
import { lastOutputLines, type TestRun } from './run-tests.ts';

/** The required action of a failed run (seed 001's text). */
export const FIX_FAILING_TESTS = 'Fix the failing tests before proceeding.';

/** What a test run adds to the message: a line under the header, and the failing output. */
export interface TestRunReport {
  /** `Tests: 1033 passed (5.1s)`, `Tests: FAILED (exit 1, 4.2s)`, `Tests: TIMED OUT after 60.0s`. */
  readonly headline: string;
  /** The last lines of a failed or timed-out run, shown in a fenced block. */
  readonly outputTail?: string;
}

/**
 * The turn's files that make the configured tests run: those matching `runTests.when`, or, without
 * `when`, every file that is not documentation (`docsPatterns`). Deleted files count: removing code
 * can break tests too.
 */
export function filesTriggeringTests(
  files: readonly AttributedFile[],
  runTests: ResolvedRunTestsConfig,
  config: Pick<ResolvedConfig, 'docsPatterns'>,
): string[] {
  const paths = [...new Set(files.map((f) => f.file.path))];
  if (runTests.when !== undefined) return paths.filter(globMatcher(runTests.when));
  const isDocs = globMatcher(config.docsPatterns);
  return paths.filter((path) => !isDocs(path));
}

/**
 * The engine's result after the hook ran the tests itself:
 * - **passed** — actions the run proves done are dropped: follow-ups and required categories whose
 *   evidence the configured command satisfies (plus that category's "was not observed" observation),
 *   so a turn that only lacked a test run becomes all clear;
 * - **failed** — "Fix the failing tests before proceeding." comes first;
 * - **timed out** — the agent is asked to run them itself (the hook could not tell);
 * - **error** (could not start) — unchanged; the caller reports a diagnostic.
 */
export function applyTestRun(result: CheckpointResult, run: TestRun, config: Pick<ResolvedConfig, 'followUps' | 'categories'>): CheckpointResult {
  switch (run.status) {
    case 'passed': {
      const segments = parseShellCommand(run.command);
      const proves = (evidence: readonly string[]): boolean => evidence.some((e) => segments.some((s) => matchesEvidence(s, e)));
      const doneSources = new Set<string>();
      const doneGaps = new Set<string>();
      for (const followUp of config.followUps) if (proves(followUp.evidence)) doneSources.add(followUp.id);
      for (const category of config.categories) {
        if (!proves(category.evidence)) continue;
        doneSources.add(category.id);
        doneGaps.add(gapSentence(category.label, category.evidence, category.action));
      }
      const requiredActions = result.requiredActions.filter((a) => !doneSources.has(a.source));
      const observations = result.observations.filter((o) => !(o.kind === 'verification-gap' && doneGaps.has(o.text)));
      return { ...result, requiredActions, observations, isAllClear: requiredActions.length === 0 && observations.length === 0 };
    }
    case 'failed':
      return withFirstAction(result, { source: 'run-tests', text: FIX_FAILING_TESTS, precedence: Number.MIN_SAFE_INTEGER });
    case 'timed-out':
      return withFirstAction(result, {
        source: 'run-tests',
        text: `Run the tests (\`${run.command}\`): the checkpoint's own run was stopped after ${seconds(run.durationMs)}.`,
        precedence: Number.MIN_SAFE_INTEGER,
      });
    case 'error':
      return result;
  }
}

/** The header line and output block of a run, or undefined for a run that could not start. */
export function reportTestRun(run: TestRun): TestRunReport | undefined {
  switch (run.status) {
    case 'passed':
      return { headline: `Tests: ${run.passedCount === undefined ? 'passed' : `${run.passedCount} passed`} (${seconds(run.durationMs)})` };
    case 'failed': {
      const how = run.exitCode !== undefined ? `exit ${run.exitCode}` : `killed by ${run.signal ?? 'a signal'}`;
      const tail = lastOutputLines(run.outputTail);
      return { headline: `Tests: FAILED (${how}, ${seconds(run.durationMs)})`, ...(tail === '' ? {} : { outputTail: tail }) };
    }
    case 'timed-out': {
      const tail = lastOutputLines(run.outputTail, 10);
      return { headline: `Tests: TIMED OUT after ${seconds(run.durationMs)}`, ...(tail === '' ? {} : { outputTail: tail }) };
    }
    case 'error':
      return undefined;
  }
}

function withFirstAction(result: CheckpointResult, action: RequiredAction): CheckpointResult {
  return { ...result, requiredActions: [action, ...result.requiredActions.filter((a) => a.text !== action.text)], isAllClear: false };
}

/** `5.1s`: one decimal, locale-independent. */
function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
}
