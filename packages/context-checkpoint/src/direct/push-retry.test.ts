import { describe, expect, it } from 'vitest';
import type { GitOutcome } from './git-step.ts';
import { classifyPushFailure, pushWithRetry } from './push-retry.ts';

const failed = (stderr: string, message = `exit 128: ${stderr.split('\n')[0] ?? ''}`): GitOutcome => ({ ok: false, code: 128, stdout: '', stderr, message });

describe('classifyPushFailure', () => {
  it.each([
    ["fatal: unable to access 'https://h/r.git/': The requested URL returned error: 503", 'transient'],
    ["fatal: unable to access 'https://h/r.git/': Could not resolve host: h", 'transient'],
    ["fatal: unable to access 'http://127.0.0.1:9/r.git/': Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server", 'transient'],
    ['error: RPC failed; HTTP 502 curl 22 The requested URL returned error: 502\nfatal: the remote end hung up unexpectedly', 'transient'],
    ["fatal: could not read Username for 'https://h': terminal prompts disabled", 'auth'],
    ["remote: Invalid username or password.\nfatal: Authentication failed for 'https://h/r.git/'", 'auth'],
    ['git@h: Permission denied (publickey).\nfatal: Could not read from remote repository.', 'auth'],
    [' ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs', 'rejected'],
    [' ! [remote rejected] main -> main (pre-receive hook declined)', 'rejected'],
    ["fatal: '/nowhere.git' does not appear to be a git repository", 'other'],
  ] as const)('%s -> %s', (stderr, kind) => {
    expect(classifyPushFailure(failed(stderr))).toBe(kind);
  });

  it('our own time limit on an attempt is transient', () => {
    expect(classifyPushFailure({ message: 'timed out after 30000 ms', stderr: '' })).toBe('transient');
  });
});

describe('pushWithRetry', () => {
  it('waits 250, 500, 1000 ms between attempts', async () => {
    const waits: number[] = [];
    const limits: number[] = [];
    const result = await pushWithRetry(
      async (timeoutMs) => {
        limits.push(timeoutMs);
        return limits.length < 4 ? failed('fatal: The requested URL returned error: 503') : { ok: true, code: 0, stdout: '', stderr: '', message: '' };
      },
      { retries: 3, timeoutMs: 1000, onRetry: (_a, _k, waitMs) => waits.push(waitMs) },
    );
    expect(result).toMatchObject({ attempts: 4, outcome: { ok: true } });
    expect(waits).toEqual([250, 500, 1000]);
    expect(limits).toEqual([1000, 1000, 1000, 1000]);
  });

  it('cuts the attempt\'s time limit to the time left before the deadline', async () => {
    let t = 10_000;
    const limits: number[] = [];
    await pushWithRetry(
      async (timeoutMs) => {
        limits.push(timeoutMs);
        t += 100;
        return { ok: true, code: 0, stdout: '', stderr: '', message: '' };
      },
      { retries: 1, timeoutMs: 30_000, deadlineAt: 12_000, now: () => t },
    );
    expect(limits).toEqual([2_000]);
  });

  it('an aborted budget ends the wait at once', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    const result = await pushWithRetry(async () => failed('fatal: The requested URL returned error: 503'), { retries: 5, timeoutMs: 1000, signal: controller.signal, onRetry: () => undefined });
    // Without the abort, five retries would wait 5.75 s in all.
    expect(result).toMatchObject({ attempts: 1, gaveUp: 'aborted' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
