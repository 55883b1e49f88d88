import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, makeTempGitRepo, type TempGitRepo } from '@agent-checkpoint/core/test-support';
import { DEFAULT_DIRECT_EXECUTION_CONFIG, type ResolvedDirectExecutionConfig } from '../config/context-config.ts';
import { readContextLevel, type KnownContextReading } from '../context/read-context-level.ts';
import { fileCall, timelineOf } from '../handoff/test-timeline.ts';
import { executeCheckpoint, type ExecuteCheckpointResult } from './execute-checkpoint.ts';
import { startFlakyGitHttp, type FlakyAnswer, type FlakyGitHttp } from './test-support/flaky-git-http.ts';

/*
 * Seed 003's "Retry Logic: auto-retry failed git pushes with backoff", against git's own smart-HTTP
 * server (`git http-backend` on 127.0.0.1) that fails the first N pushes: real git, through core's
 * write profile, as the hook runs it.
 */

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const reading = readContextLevel({ contextTokens: 172_000, contextWindow: 200_000 }) as KnownContextReading;
const CONFIG: ResolvedDirectExecutionConfig = { ...DEFAULT_DIRECT_EXECUTION_CONFIG, enabled: true, push: true, timeoutMs: 20_000 };

async function setup(failures: number, answer?: FlakyAnswer): Promise<{ r: TempGitRepo; server: FlakyGitHttp }> {
  const r = makeTempGitRepo();
  cleanups.push(r.remove);
  const outer = makeTempDir('ac-push-retry-');
  cleanups.push(outer.remove);
  const server = await startFlakyGitHttp(outer.dir, failures, answer);
  cleanups.push(server.close);
  r.git(['remote', 'add', 'origin', server.url]);
  return { r, server };
}

function execute(r: TempGitRepo, config: Partial<ResolvedDirectExecutionConfig>, deadlineAt?: number): Promise<ExecuteCheckpointResult> {
  r.write('README.md', `edit ${Math.random()}\n`);
  return executeCheckpoint({
    projectRoot: r.dir,
    agent: 'claude',
    handoff: { trigger: { kind: 'context', reading }, timeline: timelineOf([fileCall('e1', 'edit', ['README.md'])], { prompt: 'Build' }), failures: [] },
    config: { ...CONFIG, ...config },
    now: new Date('2026-01-07T11:45:00.000Z'),
    timeZone: 'UTC',
    env: r.env,
    ...(deadlineAt !== undefined ? { deadlineAt } : {}),
  });
}

function remoteHead(r: TempGitRepo, server: FlakyGitHttp): string | undefined {
  try {
    return r.git(['--git-dir', server.bare, 'rev-parse', '--verify', '-q', 'refs/heads/main']).trim();
  } catch {
    return undefined;
  }
}

describe('the WIP push retries transient failures with backoff, within the deadline', { timeout: 60_000 }, () => {
  it('a server that answers 503 twice: the third attempt pushes the commit', async () => {
    const { r, server } = await setup(2);
    const result = await execute(r, { pushRetries: 2 });
    expect(result.status, JSON.stringify(result.log)).toBe('done');
    expect(result.push).toMatchObject({ status: 'pushed', attempts: 3 });
    expect(server.pushAttempts()).toBe(3);
    expect(remoteHead(r, server)).toBe(result.commit?.sha);
    const retries = result.log.filter((e) => e.step === 'push' && e.status === 'warning').map((e) => e.message);
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatch(/attempt 1 failed \(transient: .*503.*\); retrying in 250 ms/);
    expect(retries[1]).toMatch(/attempt 2 failed .*retrying in 500 ms/);
  });

  it('a dropped connection is transient too', async () => {
    const { r, server } = await setup(1, { status: 'reset' });
    const result = await execute(r, { pushRetries: 1 });
    expect(result.push).toMatchObject({ status: 'pushed', attempts: 2 });
    expect(remoteHead(r, server)).toBe(result.commit?.sha);
  });

  it('the retries are bounded: pushRetries 1 against a server that always fails gives up after 2 attempts; the commit stands', async () => {
    const { r, server } = await setup(Number.POSITIVE_INFINITY);
    const result = await execute(r, { pushRetries: 1 });
    expect(result.status).toBe('done');
    expect(result.commit?.sha).toBe(r.git(['rev-parse', 'HEAD']).trim());
    expect(result.push).toMatchObject({ status: 'failed', attempts: 2 });
    expect(result.push?.message).toMatch(/failed after 2 attempts .*503/);
    expect(server.pushAttempts()).toBe(2);
    expect(remoteHead(r, server)).toBeUndefined();
  });

  it('pushRetries 0 pushes once (the behaviour before the retries)', async () => {
    const { r, server } = await setup(1);
    const result = await execute(r, { pushRetries: 0 });
    expect(result.push).toMatchObject({ status: 'failed', attempts: 1 });
    expect(server.pushAttempts()).toBe(1);
  });

  it('an authentication failure (401) is not retried', async () => {
    const { r, server } = await setup(Number.POSITIVE_INFINITY, { status: 401 });
    const result = await execute(r, { pushRetries: 3 });
    expect(result.status).toBe('done');
    expect(result.push).toMatchObject({ status: 'failed', attempts: 1 });
    expect(result.push?.message).toContain('[auth: not retried]');
    expect(server.pushAttempts()).toBe(1);
  });

  it('never past the hook\'s deadline: retries stop when the next wait and attempt would not fit', async () => {
    const { r, server } = await setup(Number.POSITIVE_INFINITY);
    // Enough retries to run for ~8 s of backoff alone; the deadline allows a few of them.
    const deadlineAt = Date.now() + 2_500;
    const result = await execute(r, { pushRetries: 5 }, deadlineAt);
    const finished = Date.now();
    expect(result.push?.status).toBe('failed');
    expect(result.push?.message).toContain("no time left before the hook's deadline");
    expect(result.push?.attempts ?? 0).toBeGreaterThanOrEqual(1);
    expect(result.push?.attempts ?? 99).toBeLessThan(6);
    expect(server.pushAttempts()).toBe(result.push?.attempts);
    // The state step after the push reads git once more; the push itself ended before the deadline.
    const pushEnd = Date.parse(result.log.filter((e) => e.step === 'push').at(-1)?.at ?? '');
    expect(pushEnd).toBeLessThanOrEqual(deadlineAt);
    expect(finished).toBeLessThan(deadlineAt + 5_000);
  });
});
