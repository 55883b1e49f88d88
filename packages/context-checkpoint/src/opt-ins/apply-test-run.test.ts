import { describe, expect, it } from 'vitest';
import type { AttributedFile, CheckpointResult } from '@agent-checkpoint/core';
import { applyTestRun, filesTriggeringTests, FIX_FAILING_TESTS, reportTestRun } from './apply-test-run.ts';
import { resolveWithSections } from '../config/context-sections.ts';
import { runTestsConfigOf } from '../config/context-config.ts';

const config = resolveWithSections([
  {
    source: { kind: 'project-file', name: 'test' },
    config: {
      categories: [
        { id: 'tests-only', label: 'tests', include: ['tests/**'], action: 'Run the changed tests: `pytest`', evidence: ['pytest'], onlyWhenAlone: true },
        { id: 'daemon', label: 'daemon code', include: ['src/**'], action: 'Run `make restart`', evidence: ['make restart'] },
      ],
      followUps: [{ id: 'run-tests', action: 'Run the tests: `pytest`', evidence: ['pytest', 'make test'] }],
      runTests: { command: 'pytest -x -q' },
    },
  },
]);
const file = (path: string): AttributedFile => ({ file: { path, status: 'modified', source: 'worktree' }, reason: 'tool-mutation', callIds: [] });

describe('filesTriggeringTests', () => {
  it('defaults to every non-docs file, or the `when` globs', () => {
    const files = [file('src/a.py'), file('README.md'), file('docs/x.txt')];
    expect(filesTriggeringTests(files, runTestsConfigOf(config)!, config)).toEqual(['src/a.py']);
    expect(filesTriggeringTests(files, { ...runTestsConfigOf(config)!, when: ['**/*.md'] }, config)).toEqual(['README.md']);
    expect(filesTriggeringTests([file('README.md')], runTestsConfigOf(config)!, config)).toEqual([]);
  });
});

describe('applyTestRun', () => {
  const result: CheckpointResult = {
    categories: [],
    requiredActions: [
      { source: 'daemon', text: 'Run `make restart`', precedence: 50 },
      { source: 'run-tests', text: 'Run the tests: `pytest`', precedence: 100 },
    ],
    observations: [{ kind: 'verification-gap', text: 'Daemon code was modified but `make restart` was not observed this turn', callIds: [] }],
    isAllClear: false,
  };

  it('passed: drops what the configured command proves (the test follow-up), keeps the rest', () => {
    const after = applyTestRun(result, { status: 'passed', command: 'pytest -x -q', durationMs: 5100, outputTail: '' }, config);
    expect(after.requiredActions.map((a) => a.source)).toEqual(['daemon']);
    expect(after.observations).toHaveLength(1);
    expect(after.isAllClear).toBe(false);
  });

  it('passed: a turn that only lacked the test run becomes all clear (category action and its gap observation)', () => {
    const onlyTests: CheckpointResult = {
      categories: [],
      requiredActions: [{ source: 'tests-only', text: 'Run the changed tests: `pytest`', precedence: 50 }],
      observations: [{ kind: 'verification-gap', text: 'Tests was modified but `pytest` was not observed this turn', callIds: [] }],
      isAllClear: false,
    };
    const after = applyTestRun(onlyTests, { status: 'passed', command: 'pytest -x -q', durationMs: 10, outputTail: '' }, config);
    expect(after).toMatchObject({ requiredActions: [], observations: [], isAllClear: true });
  });

  it('passed with a command that proves nothing: unchanged', () => {
    const after = applyTestRun(result, { status: 'passed', command: './run-checks.sh', durationMs: 10, outputTail: '' }, config);
    expect(after.requiredActions).toHaveLength(2);
  });

  it('failed: "Fix the failing tests before proceeding." first, never all clear', () => {
    const allClear: CheckpointResult = { categories: [], requiredActions: [], observations: [], isAllClear: true };
    const after = applyTestRun(allClear, { status: 'failed', command: 'pytest', durationMs: 10, exitCode: 1, outputTail: 'FAILED' }, config);
    expect(after.requiredActions).toEqual([{ source: 'run-tests', text: FIX_FAILING_TESTS, precedence: Number.MIN_SAFE_INTEGER }]);
    expect(after.isAllClear).toBe(false);
    expect(applyTestRun(result, { status: 'failed', command: 'pytest', durationMs: 1, exitCode: 1, outputTail: '' }, config).requiredActions[0]?.text).toBe(
      FIX_FAILING_TESTS,
    );
  });

  it('timed out: asks the agent to run them; could not start: unchanged', () => {
    const timedOut = applyTestRun(result, { status: 'timed-out', command: 'pytest', durationMs: 60_000, limitMs: 60_000, outputTail: '' }, config);
    expect(timedOut.requiredActions[0]?.text).toBe("Run the tests (`pytest`): the checkpoint's own run was stopped after 60.0s.");
    expect(applyTestRun(result, { status: 'error', command: 'pytest', detail: 'ENOENT' }, config)).toBe(result);
  });
});

describe('reportTestRun', () => {
  it('renders the seed\'s headlines', () => {
    expect(reportTestRun({ status: 'passed', command: 'pytest', durationMs: 5100, passedCount: 1033, outputTail: '' })).toEqual({
      headline: 'Tests: 1033 passed (5.1s)',
    });
    expect(reportTestRun({ status: 'passed', command: 'make check', durationMs: 250, outputTail: '' })?.headline).toBe('Tests: passed (0.3s)');
    expect(
      reportTestRun({ status: 'failed', command: 'pytest', durationMs: 4200, exitCode: 1, outputTail: 'x\nFAILED tests/unit/test_checkpoint_hook.py::test_gemini_format - AssertionError\n' }),
    ).toEqual({ headline: 'Tests: FAILED (exit 1, 4.2s)', outputTail: 'x\nFAILED tests/unit/test_checkpoint_hook.py::test_gemini_format - AssertionError' });
    expect(reportTestRun({ status: 'failed', command: 'pytest', durationMs: 10, signal: 'SIGSEGV', outputTail: '' })).toEqual({
      headline: 'Tests: FAILED (killed by SIGSEGV, 0.0s)',
    });
    expect(reportTestRun({ status: 'timed-out', command: 'pytest', durationMs: 7400, limitMs: 60_000, outputTail: '' })?.headline).toBe(
      'Tests: TIMED OUT after 7.4s',
    );
    expect(reportTestRun({ status: 'error', command: 'pytest', detail: 'x' })).toBeUndefined();
  });
});
