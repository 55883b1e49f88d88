import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseTransport } from './choose-transport.ts';
import { detectQueueSupport, queueSupportCachePath, resolveCodexCommand, type CodexCommand } from './detect-codex-queue.ts';

// Real executables in a temp dir stand for Codex builds: one with `codex queue` (prints the
// 0.169 usage), one that rejects the subcommand (as the e2e wrapper does), one that prints the
// top-level help with exit 0 for an unknown subcommand (as 0.169 does for e.g. `codex nosuch --help`).

const QUEUE_USAGE = [
  'Queue a message for an existing session',
  '',
  'Usage: codex queue [OPTIONS] --thread <THREAD> --message <TEXT>',
  '',
  'Options:',
  '      --thread <THREAD>',
  '      --message <TEXT>',
].join('\n');

let dir: string;
let stateDir: string;
let calls: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-detect-queue-'));
  stateDir = join(dir, 'state');
  calls = join(dir, 'calls.log');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Write `<dir>/<sub>/codex`: a shell script that logs each call, then runs `body`. */
function codexScript(sub: string, body: string): string {
  mkdirSync(join(dir, sub), { recursive: true });
  const file = join(dir, sub, 'codex');
  writeFileSync(file, `#!/bin/sh\necho "$*" >> '${calls}'\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}
// Shell builtins only: the tests run some of these with a PATH that holds nothing else.
const withQueue = (sub = 'new') => codexScript(sub, `if [ "$1" = queue ]; then printf '%s\\n' ${QUEUE_USAGE.split('\n').map((l) => `'${l}'`).join(' ')}; exit 0; fi\nexit 0`);
const withoutQueue = (sub = 'old') => codexScript(sub, `if [ "$1" = queue ]; then echo "error: unrecognized subcommand 'queue'" >&2; exit 2; fi\nexit 0`);
const topLevelHelp = (sub = 'lenient') => codexScript(sub, `echo 'Codex CLI'; echo; echo 'Usage: codex [OPTIONS] [PROMPT]'; exit 0`);
const probes = (): number => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter((l) => l === 'queue --help').length : 0);
const command = (path: string): CodexCommand => ({ argv: [path], path, source: 'PATH' });
const env = { PATH: '/usr/bin:/bin' };

describe('detectQueueSupport', () => {
  it('supported when `codex queue --help` prints the queue usage; the answer is cached per binary', async () => {
    const codex = command(withQueue());
    expect(await detectQueueSupport(codex, { stateDir, env })).toMatchObject({ supported: true, cached: false });
    expect(await detectQueueSupport(codex, { stateDir, env })).toMatchObject({ supported: true, cached: true });
    expect(probes()).toBe(1);
    expect(existsSync(queueSupportCachePath(stateDir))).toBe(true);
  });

  it('not supported when the subcommand is rejected, or when only the top-level help comes back (exit 0)', async () => {
    expect(await detectQueueSupport(command(withoutQueue()), { stateDir, env })).toMatchObject({ supported: false, detail: expect.stringMatching(/exited 2/) });
    expect(await detectQueueSupport(command(topLevelHelp()), { stateDir, env })).toMatchObject({ supported: false, detail: expect.stringMatching(/did not print the queue usage/) });
  });

  it('probes again when the binary changes (another path, or a new mtime after an upgrade) or the cache is old', async () => {
    const file = withQueue();
    await detectQueueSupport(command(file), { stateDir, env });
    // Upgrade in place: a build without the queue, with a new mtime.
    writeFileSync(file, `#!/bin/sh\necho "$*" >> '${calls}'\nif [ "$1" = queue ]; then exit 2; fi\n`);
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(await detectQueueSupport(command(file), { stateDir, env })).toMatchObject({ supported: false, cached: false });
    expect(await detectQueueSupport(command(file), { stateDir, env, now: Date.now() + 25 * 60 * 60 * 1000 })).toMatchObject({ cached: false });
    expect(probes()).toBe(3);
  });

  it('a hanging `codex` is a timeout, not cached; a corrupt cache file is ignored', async () => {
    const hanging = command(codexScript('hang', 'exec sleep 30'));
    const started = Date.now();
    expect(await detectQueueSupport(hanging, { stateDir, env, timeoutMs: 300 })).toMatchObject({ supported: false, detail: expect.stringMatching(/timed out/) });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(existsSync(queueSupportCachePath(stateDir))).toBe(false);
    mkdirSync(join(stateDir, 'cache'), { recursive: true });
    writeFileSync(queueSupportCachePath(stateDir), '{"version":1,"supported":true');
    expect(await detectQueueSupport(command(withQueue()), { stateDir, env })).toMatchObject({ supported: true, cached: false });
  });
});

describe('resolveCodexCommand and chooseTransport', () => {
  it('takes `codex` from absolute PATH entries only (a relative entry would depend on the repository)', async () => {
    const file = withQueue('bin');
    expect(await resolveCodexCommand({ PATH: `bin:${join(dir, 'bin')}` })).toEqual({ argv: [file], path: file, source: 'PATH' });
    expect(await resolveCodexCommand({ PATH: 'bin' })).toBeUndefined();
  });

  it('queue when the installed Codex has it, tmux typing otherwise, none when the queue is forced and missing', async () => {
    withQueue('new');
    withoutQueue('old');
    expect(await chooseTransport({ env: { PATH: join(dir, 'new') }, stateDir })).toMatchObject({ kind: 'queue' });
    expect(await chooseTransport({ env: { PATH: join(dir, 'old') }, stateDir })).toMatchObject({ kind: 'tmux', why: expect.stringMatching(/no `codex queue`/) });
    expect(await chooseTransport({ env: { PATH: join(dir, 'old') }, stateDir, choice: 'queue' })).toMatchObject({ kind: 'none' });
    expect(await chooseTransport({ env: { PATH: join(dir, 'new') }, stateDir, choice: 'tmux' })).toMatchObject({ kind: 'tmux', why: '--transport=tmux' });
    expect(await chooseTransport({ env: { PATH: join(dir, 'empty') }, stateDir })).toMatchObject({ kind: 'tmux', why: expect.stringMatching(/no `codex` executable on PATH/) });
  });
});
