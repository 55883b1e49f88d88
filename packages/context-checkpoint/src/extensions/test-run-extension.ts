import type { TurnEndExtension } from '@agent-checkpoint/core';
import { applyTestRun, filesTriggeringTests, reportTestRun } from '../opt-ins/apply-test-run.ts';
import { runTests, type TestRun } from '../opt-ins/run-tests.ts';
import { runTestsConfigOf } from '../config/context-config.ts';

/**
 * The hook's own test run (seed 001, `runTests`): when the turn changed a file that triggers it, run
 * the configured command in the project root (bounded by `runTests.timeoutMs` and the route's
 * deadline), add a failure as an observation, and render its headline under the message header.
 * Runs before the context step, whose "is there a message anyway" depends on it. Never throws.
 */
export const testRunExtension: TurnEndExtension<TestRun> = {
  name: 'runTests',
  async run(input) {
    const { config } = input;
    const settings = runTestsConfigOf(config);
    if (settings === undefined) return {};
    if (filesTriggeringTests(input.files, settings, config).length === 0) return {};
    const tests = await runTests({
      command: settings.command,
      cwd: input.projectRoot,
      timeoutMs: settings.timeoutMs,
      env: input.env,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const diagnostics: string[] = [];
    if (tests.status === 'error') diagnostics.push(`runTests: \`${tests.command}\` could not start: ${tests.detail}`);
    if (tests.status === 'timed-out' && tests.durationMs < tests.limitMs - 50) {
      diagnostics.push(
        `runTests: stopped after ${tests.durationMs} ms by the hook's overall deadline, before runTests.timeoutMs (${tests.limitMs} ms); raise AGENT_CHECKPOINT_HOOK_DEADLINE_MS`,
      );
    }
    const report = reportTestRun(tests);
    return {
      result: applyTestRun(input.result, tests, config),
      ...(report ? { tests: report } : {}),
      detail: tests,
      diagnostics,
    };
  },
};
