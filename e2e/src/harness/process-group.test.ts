import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findMarkedProcesses, killMarkedProcesses, markedCommandLines, RUN_MARKER_VAR, runInGroup } from './process-group.ts';
import { waitFor } from './wait-for.ts';

const env = (runId: string): Record<string, string> => ({ PATH: process.env['PATH'] ?? '/usr/bin:/bin', [RUN_MARKER_VAR]: runId });
const newRunId = (): string => `test-${randomBytes(4).toString('hex')}`;

describe('runInGroup', () => {
  it('captures output and the exit code', async () => {
    const result = await runInGroup(['/bin/sh', '-c', 'echo out; echo err >&2; exit 3'], { cwd: '/', env: env(newRunId()), timeoutMs: 10_000 });
    expect(result).toMatchObject({ exitCode: 3, stdout: 'out\n', stderr: 'err\n', timedOut: false });
  });

  it('kills the whole process group at the deadline, grandchildren included', async () => {
    const runId = newRunId();
    const result = await runInGroup(['/bin/sh', '-c', 'sleep 100 & sleep 100; wait'], { cwd: '/', env: env(runId), timeoutMs: 300, killGraceMs: 500 });
    expect(result.timedOut).toBe(true);
    await waitFor(() => findMarkedProcesses(runId).length === 0, { timeoutMs: 5000, what: 'the group to be gone' });
  });

  it('runs `during` alongside the process (e.g. SIGINT once a command runs)', async () => {
    const runId = newRunId();
    const result = await runInGroup(['/bin/sh', '-c', 'trap "echo got-int; exit 130" INT; sleep 100 </dev/null >/dev/null 2>&1 & wait'], {
      cwd: '/',
      env: env(runId),
      timeoutMs: 20_000,
      during: async (proc) => {
        await waitFor(() => markedCommandLines(runId).some((p) => p.cmdline === 'sleep 100'), { timeoutMs: 5000, what: 'sleep to start' });
        proc.signalGroup('SIGINT');
      },
    });
    expect(result.exitCode).toBe(130);
    expect(result.stdout).toContain('got-int');
    killMarkedProcesses(runId);
  });

  it('does not wait for a background child that still holds stdout after the process exited', async () => {
    const runId = newRunId();
    const result = await runInGroup(['/bin/sh', '-c', 'sleep 100 & echo bye'], { cwd: '/', env: env(runId), timeoutMs: 20_000, pipeGraceMs: 300 });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, stdout: 'bye\n' });
    expect(result.durationMs).toBeLessThan(10_000);
    killMarkedProcesses(runId);
  });
});

describe('killMarkedProcesses', () => {
  it('finds and kills descendants that left the process group (setsid)', async () => {
    const runId = newRunId();
    await runInGroup(['/bin/sh', '-c', 'setsid sleep 100 >/dev/null 2>&1 < /dev/null &'], { cwd: '/', env: env(runId), timeoutMs: 10_000 });
    await waitFor(() => findMarkedProcesses(runId).length > 0, { timeoutMs: 5000, what: 'the escaped sleep' });
    expect(killMarkedProcesses(runId)).toBeGreaterThan(0);
    await waitFor(() => findMarkedProcesses(runId).length === 0, { timeoutMs: 5000, what: 'the escaped sleep to die' });
  });
});
