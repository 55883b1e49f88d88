/**
 * Codex CLI plugins ship skills (`SKILL.md` under the manifest's `skills` folder), not slash commands:
 * install the plugin from a copy of this checkout into a temp CODEX_HOME with the real pinned Codex,
 * then ask Codex's own app-server (`skills/list`) which skills it loads. The temp dir is an e2e
 * workspace and every process carries its run marker, so a killed run's leftovers (the dir, an
 * app-server) are reaped by the next run (issue 24, item 8).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { agentCli } from '../src/harness/agent-clis.ts';
import { isolatedEnv } from '../src/harness/isolated-env.ts';
import { findMarkedProcesses, killMarkedProcesses } from '../src/harness/process-group.ts';
import { createTempWorkspace, type TempWorkspace } from '../src/harness/temp-workspace.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
/** The pinned Codex the e2e global setup installs on demand (argv: node and its npm launcher). */
const [CODEX, ...CODEX_ARGS] = agentCli('codex').argv as [string, ...string[]];
const workspaces: TempWorkspace[] = [];

afterEach(() => {
  for (const workspace of workspaces.splice(0)) {
    killMarkedProcesses(workspace.runId);
    workspace.dispose();
  }
});

/** Copies the tracked files (a clone-like checkout) and commits them. */
function copyCheckout(to: string): void {
  const files = spawnSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
  for (const file of files) {
    mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    try { cpSync(path.join(REPO, file), path.join(to, file)); } catch { /* deleted in the work tree */ }
  }
  const git = (...args: string[]) => spawnSync('git', args, { cwd: to, encoding: 'utf8' });
  git('init', '-q'); git('add', '-A');
  git('-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'commit', '-qm', 'checkout');
}

/** Sends initialize + skills/list to `codex app-server` and resolves with the skill names (deadline 30 s). */
function listSkills(env: NodeJS.ProcessEnv, cwd: string): Promise<string[]> {
  const child = spawn(CODEX, [...CODEX_ARGS, 'app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
  return new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => { child.kill(); reject(new Error('no skills/list answer within 30 s')); }, 30_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      let msg: { id?: number; result?: unknown };
      try { msg = JSON.parse(line); } catch { return; }
      if (msg.id !== 2) return;
      clearTimeout(timer);
      child.kill();
      resolve([...JSON.stringify(msg.result).matchAll(/"name":"([^"]+)"/g)].map((m) => m[1]!));
    });
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    const send = (o: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...o })}\n`);
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'e2e', version: '1' } } });
    send({ method: 'initialized' });
    send({ id: 2, method: 'skills/list', params: { cwds: [cwd] } });
  });
}

describe('codex plugin skills', () => {
  it('the installed plugin gives Codex the skills agent-checkpoint:checkpoint, :estimate, :shard, :checkpoint-report, :checkpoint-off, :checkpoint-on, :checkpoint-status, :checkpoint-doctor', async () => {
    const workspace = createTempWorkspace({ files: {} });
    workspaces.push(workspace);
    const home = workspace.home;
    const checkout = path.join(workspace.root, 'agent-checkpoint');
    copyCheckout(checkout);
    const env = { ...isolatedEnv(workspace), CODEX_HOME: path.join(home, '.codex') };
    mkdirSync(env.CODEX_HOME, { recursive: true });
    for (const args of [['plugin', 'marketplace', 'add', checkout], ['plugin', 'add', 'agent-checkpoint@agent-checkpoint']]) {
      const r = spawnSync(CODEX, [...CODEX_ARGS, ...args], { cwd: home, env, encoding: 'utf8', timeout: 60_000 });
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const names = await listSkills(env, checkout);
    expect(names).toEqual(expect.arrayContaining([
      'agent-checkpoint:checkpoint', 'agent-checkpoint:estimate', 'agent-checkpoint:shard', 'agent-checkpoint:checkpoint-report',
      'agent-checkpoint:checkpoint-off', 'agent-checkpoint:checkpoint-on', 'agent-checkpoint:checkpoint-status', 'agent-checkpoint:checkpoint-doctor',
    ]));
    // The app-server it asked is gone: nothing of this run outlives it.
    killMarkedProcesses(workspace.runId);
    expect(findMarkedProcesses(workspace.runId), 'processes left').toEqual([]);
  }, 120_000);
});
