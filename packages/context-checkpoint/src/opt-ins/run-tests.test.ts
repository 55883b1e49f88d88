import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastOutputLines, passedCountOf, runTests } from './run-tests.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-run-tests-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** True while a process with this pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Wait (with a deadline) until `condition` holds. */
async function waitFor(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Real git repositories and processes on a shared, loaded machine: generous limits.
describe('runTests', { timeout: 60_000 }, () => {
  it('a passing command: passed, with the runner count and the duration', async () => {
    const run = await runTests({ command: "printf 'collected 3\\n\\n=== 1033 passed in 5.10s ===\\n'", cwd: dir, timeoutMs: 10_000 });
    expect(run).toMatchObject({ status: 'passed', passedCount: 1033 });
    expect(run.status === 'passed' && run.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('a failing command: failed, its exit code and the output of both streams, in the repository cwd', async () => {
    writeFileSync(join(dir, 'marker'), 'here');
    const run = await runTests({ command: 'cat marker; echo FAILED tests/unit/test_x.py::test_y - AssertionError >&2; exit 3', cwd: dir, timeoutMs: 10_000 });
    expect(run).toMatchObject({ status: 'failed', exitCode: 3 });
    expect(run.status === 'failed' && run.outputTail).toContain('here');
    expect(run.status === 'failed' && run.outputTail).toContain('FAILED tests/unit/test_x.py::test_y - AssertionError');
  });

  it('the shell is the user\'s: quoting, && and env assignments work', async () => {
    const run = await runTests({ command: 'X="a b" && test "$X" = "a b" && echo "ok 2 passed"', cwd: dir, timeoutMs: 10_000 });
    expect(run).toMatchObject({ status: 'passed', passedCount: 2 });
  });

  it('a timeout kills the whole process group (workers included) and settles at once', async () => {
    const pids = join(dir, 'pids');
    // The command starts a background worker and waits; both must be gone after the timeout.
    const command = `sleep 30 & echo $! > ${pids}; echo $$ >> ${pids}; wait`;
    const started = Date.now();
    const run = await runTests({ command, cwd: dir, timeoutMs: 700 });
    expect(run).toMatchObject({ status: 'timed-out', limitMs: 700 });
    expect(Date.now() - started).toBeLessThan(5000);
    const recorded = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    expect(recorded).toHaveLength(2);
    await waitFor(() => recorded.every((pid) => !alive(pid)));
  });

  it('an abort signal ends the run like a timeout', async () => {
    const controller = new AbortController();
    const pending = runTests({ command: 'sleep 30', cwd: dir, timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toMatchObject({ status: 'timed-out' });
    expect(await runTests({ command: 'true', cwd: dir, timeoutMs: 1000, signal: AbortSignal.abort() })).toMatchObject({ status: 'timed-out' });
  });

  it('a missing working directory is an error, not a failed run', async () => {
    const run = await runTests({ command: 'true', cwd: join(dir, 'missing'), timeoutMs: 5000 });
    expect(run.status).toBe('error');
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('keeps only the tail of a huge output', async () => {
    const run = await runTests({ command: 'yes line | head -n 200000; echo LAST', cwd: dir, timeoutMs: 20_000, keepBytes: 1024 });
    expect(run.status).toBe('passed');
    const tail = run.status === 'passed' ? run.outputTail : '';
    expect(tail.length).toBeLessThanOrEqual(1024);
    expect(tail.trimEnd().endsWith('LAST')).toBe(true);
  });
});

describe('passedCountOf', () => {
  it.each([
    ['pytest', '==== 1033 passed, 2 skipped in 5.10s ====', 1033],
    ['vitest', ' Test Files  4 passed (4)\n      Tests  57 passed (57)', 57],
    ['jest', 'Tests:       5 passed, 5 total', 5],
    ['cargo', 'test result: ok. 12 passed; 0 failed', 12],
    ['node --test', '# pass 7', undefined],
    ['go -v', '--- PASS: TestA (0.00s)\n--- PASS: TestB (0.00s)\nok  \tpkg\t0.01s', 2],
    ['colours', '\u001b[32m 9 passed\u001b[39m', 9],
  ])('%s', (_name, output, expected) => {
    expect(passedCountOf(output)).toBe(expected);
  });
});

describe('lastOutputLines', () => {
  it('keeps the last non-empty lines, strips colours and cuts long lines', () => {
    const output = `${Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n')}\n\n\u001b[31m${'x'.repeat(400)}\u001b[0m\n`;
    const lines = lastOutputLines(output, 5, 50).split('\n');
    expect(lines).toEqual(['line 26', 'line 27', 'line 28', 'line 29', `${'x'.repeat(49)}…`]);
  });
});
