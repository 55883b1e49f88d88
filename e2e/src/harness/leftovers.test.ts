import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentOwner, OWNER_VAR, ownerAlive, reapLeftovers } from './leftovers.ts';
import { waitFor } from './wait-for.ts';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'leftovers-killed-run.fixture.ts');

let dir: string;
let tmpDir: string;
let tmuxTmp: string;
let socketDir: string;
const startedPids: number[] = [];

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const tmux = (...args: string[]) => spawnSync('tmux', args, { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TMUX_TMPDIR: tmuxTmp } });

beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'ac-leftovers-test-')));
  tmpDir = path.join(dir, 'tmp');
  tmuxTmp = path.join(dir, 'tmux');
  socketDir = path.join(tmuxTmp, `tmux-${os.userInfo().uid}`);
  mkdirSync(tmpDir);
  // tmux creates its socket directory only for -L; -S needs it (0700, as tmux requires).
  mkdirSync(socketDir, { recursive: true, mode: 0o700 });
});

afterEach(() => {
  tmux('-S', path.join(socketDir, 'users-own'), 'kill-server');
  for (const pid of startedPids.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the fixture run, waits for its resources, SIGKILLs it and returns what it left. */
async function killedRun(): Promise<{ root: string; socket: string; pids: number[] }> {
  // No inherited owner: the fixture owns its resources, as a run's vitest main process does.
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmpDir, TMUX_TMPDIR: tmuxTmp };
  delete env['AC_E2E_OWNER'];
  const run = spawn(process.execPath, ['--import', 'tsx', FIXTURE], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => run.once('exit', resolve));
  const line = await waitFor(() => new Promise<string>((resolve) => createInterface({ input: run.stdout }).once('line', resolve)), { timeoutMs: 60_000, what: 'the fixture run to start its resources' });
  const left = JSON.parse(line) as { root: string; socket: string; pids: number[] };
  startedPids.push(...left.pids);
  run.kill('SIGKILL');
  await exited;
  return left;
}

describe('reapLeftovers', () => {
  it('reaps the tmux server, daemons and workspace of a SIGKILLed run, and nothing else', async () => {
    // Someone else's tmux server on another private socket in the same directory.
    tmux('-S', path.join(socketDir, 'users-own'), 'new-session', '-d', 'sleep 3600');
    expect(tmux('-S', path.join(socketDir, 'users-own'), 'has-session').status).toBe(0);
    // A workspace of a run still alive (this test process's owner), and one without an owner file
    // (an older harness, or not ours): both untouched.
    const liveRun = path.join(tmpDir, 'ac-e2e-aaaaaaaaaaaa-live01');
    mkdirSync(liveRun);
    writeFileSync(path.join(liveRun, '.ac-e2e-owner'), `${currentOwner()}\n`);
    const unowned = path.join(tmpDir, 'ac-e2e-bbbbbbbbbbbb-other1');
    mkdirSync(unowned);

    // A process of a run still alive (this test's own run): untouched.
    const bystander = spawn('sleep', ['3603'], { env: { ...process.env, AC_E2E_OWNER: currentOwner() }, detached: true, stdio: 'ignore' });
    startedPids.push(bystander.pid!);

    const left = await killedRun();
    // The run is dead; what it started is not.
    expect(left.pids.every(alive)).toBe(true);
    expect(tmux('-L', left.socket, 'has-session').status).toBe(0);
    expect(existsSync(left.root)).toBe(true);

    const report = reapLeftovers({ tmpDir, tmuxSocketDirs: [socketDir] });

    expect(report.workspaces).toEqual([left.root]);
    expect(report.tmuxServers).toEqual([path.join(socketDir, left.socket)]);
    expect(report.processes).toEqual(expect.arrayContaining(left.pids));
    await waitFor(() => left.pids.every((pid) => !alive(pid)), { timeoutMs: 10_000, what: 'the daemons to die' });
    expect(tmux('-L', left.socket, 'has-session').status).not.toBe(0);
    expect(existsSync(left.root)).toBe(false);
    expect(readdirSync(socketDir)).toEqual(['users-own']);
    expect(tmux('-S', path.join(socketDir, 'users-own'), 'has-session').status).toBe(0);
    expect(existsSync(liveRun) && existsSync(unowned)).toBe(true);
    expect(alive(bystander.pid!)).toBe(true);
    // Idempotent: nothing left to reap.
    expect(reapLeftovers({ tmpDir, tmuxSocketDirs: [socketDir] })).toEqual({ tmuxServers: [], workspaces: [], processes: [] });
  });

  it('stops the processes of a workspace kept for debugging but keeps its files', async () => {
    const left = await killedRun();
    writeFileSync(path.join(left.root, '.ac-e2e-kept'), '');
    const report = reapLeftovers({ tmpDir, tmuxSocketDirs: [socketDir] });
    expect(report.workspaces).toEqual([left.root]);
    await waitFor(() => left.pids.every((pid) => !alive(pid)), { timeoutMs: 10_000, what: 'the daemons to die' });
    expect(existsSync(path.join(left.root, 'repo', 'README.md'))).toBe(true);
  });

  it('this run (the vitest main process, via the global setup) owns what its workers create', () => {
    const owner = process.env[OWNER_VAR];
    expect(owner).toMatch(/^\d+-\d+$/);
    expect(currentOwner()).toBe(owner);
    expect(ownerAlive(owner!)).toBe(true);
    expect(ownerAlive(`${owner!.split('-')[0]}-1`)).toBe(false);
  });
});
