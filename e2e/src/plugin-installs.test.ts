import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentId } from '@agent-checkpoint/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCli, E2E_PACKAGE_DIR } from './harness/agent-clis.ts';
import { HOOK_BUNDLE } from './harness/agent-checkpoint-bins.ts';
import { isolatedEnv } from './harness/isolated-env.ts';
import { isolatedGitEnv } from './harness/temp-workspace.ts';

// The agents' own install routes, run with the pinned CLIs in temp HOMEs (offline): the Claude Code
// plugin, the Gemini CLI extension and the Codex plugin, each from a local folder and from a git URL,
// then what `agent-checkpoint-hook doctor`, `install` and `uninstall --purge` make of them.
// A local bare repository stands in for the remote: Claude Code and Codex clone
// `https://git.invalid/agent-checkpoint.git`, which git's `url.<local>.insteadOf` (GIT_CONFIG_* in the
// environment) sends to it; Gemini CLI strips git config from its clone's environment, so it clones
// `ssh://git.invalid/<bare repo>` through GIT_SSH_COMMAND, a stand-in ssh that runs git's remote command
// locally. The URL forms and the registry files are exactly the users'.

const REPO_ROOT = path.resolve(E2E_PACKAGE_DIR, '..');
const GIT_URL = 'https://git.invalid/agent-checkpoint.git';

let root: string;
let clone: string;
let bare: string;
let fakeSsh: string;
let runId = 0;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'ac-e2e-plugins-'));
  // The marketplace as a clone of this repository holds it (only the files the agents read).
  clone = path.join(root, 'agent-checkpoint');
  for (const part of ['.claude-plugin', '.agents', 'plugins/agent-checkpoint', 'gemini-extension.json', 'hooks', 'commands']) {
    cpSync(path.join(REPO_ROOT, part), path.join(clone, part), { recursive: true });
  }
  cpSync(HOOK_BUNDLE, path.join(clone, 'plugins', 'agent-checkpoint', 'dist', 'agent-checkpoint-hook.cjs'));
  const gitEnv = { ...process.env, ...isolatedGitEnv(root) };
  execFileSync('git', ['init', '-q', '-b', 'main', clone], { env: gitEnv });
  execFileSync('git', ['-C', clone, 'add', '-A'], { env: gitEnv });
  execFileSync('git', ['-C', clone, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'marketplace'], { env: gitEnv });
  bare = path.join(root, 'agent-checkpoint.git');
  execFileSync('git', ['clone', '-q', '--bare', clone, bare], { env: gitEnv });
  fakeSsh = path.join(root, 'fake-ssh');
  writeFileSync(fakeSsh, '#!/bin/sh\n# stand-in for ssh: run the remote git command (the last argument) here\nfor last; do :; done\nexec sh -c "$last"\n');
  chmodSync(fakeSsh, 0o755);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fresh HOME and the environment every command of one scenario runs with. */
function freshHome(): { home: string; env: Record<string, string> } {
  runId += 1;
  const home = path.join(root, `home-${runId}`);
  const tmp = path.join(root, `tmp-${runId}`);
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  const env = {
    ...isolatedEnv({ home, tmp, runId: `plugins-${runId}` }),
    AGENT_CHECKPOINT_STATE_DIR: path.join(home, '.local', 'state', 'agent-checkpoint'),
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    NO_COLOR: '1',
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: `url.file://${bare}.insteadOf`,
    GIT_CONFIG_VALUE_0: GIT_URL,
    GIT_SSH_COMMAND: fakeSsh,
  };
  return { home, env };
}

function agent(name: AgentId, args: string[], env: Record<string, string>): string {
  const cli = agentCli(name);
  const result = spawnSync(cli.argv[0]!, [...cli.argv.slice(1), ...args], { env, cwd: env['HOME'], encoding: 'utf8', timeout: 120_000 });
  expect(result.status, `${name} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

function hook(args: string[], env: Record<string, string>): { code: number; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [HOOK_BUNDLE, ...args], { env, cwd: env['HOME'], encoding: 'utf8', timeout: 60_000 });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

interface Finding {
  id: string;
  status: string;
  title: string;
  fix?: string;
}
function doctor(env: Record<string, string>): Finding[] {
  return (JSON.parse(hook(['doctor', '--json'], { ...env, AGENT_CHECKPOINT_DOCTOR_TIMEOUT_MS: '1500' }).stdout) as { findings: Finding[] }).findings;
}
const byId = (findings: Finding[], id: string) => findings.find((f) => f.id === id);

describe('plugin and extension installs made by the real CLIs', () => {
  it('Claude Code: a folder marketplace is a working install, a second copy is refused, a moved folder is reported; the git URL form survives', () => {
    const { env } = freshHome();
    agent('claude', ['plugin', 'marketplace', 'add', clone], env);
    agent('claude', ['plugin', 'install', 'agent-checkpoint@agent-checkpoint'], env);
    const id = 'claude.plugin.agent-checkpoint@agent-checkpoint';
    expect(byId(doctor(env), id)).toMatchObject({ status: 'ok', title: `Claude Code: plugin agent-checkpoint@agent-checkpoint (enabled): runs ${clone}/plugins/agent-checkpoint/dist/agent-checkpoint-hook.cjs` });
    expect(byId(doctor(env), 'claude.hook')).toBeUndefined();
    const refused = hook(['install', '--agent', 'claude'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('claude plugin uninstall agent-checkpoint@agent-checkpoint');

    renameSync(clone, `${clone}-moved`);
    try {
      expect(agent('claude', ['plugin', 'list'], env)).toContain('cache-miss');
      expect(byId(doctor(env), id)).toMatchObject({ status: 'fail', fix: expect.stringContaining('claude plugin marketplace add <git-url>') });
    } finally {
      renameSync(`${clone}-moved`, clone);
    }

    const git = freshHome();
    agent('claude', ['plugin', 'marketplace', 'add', GIT_URL], git.env);
    agent('claude', ['plugin', 'install', 'agent-checkpoint@agent-checkpoint'], git.env);
    const cached = path.join(git.home, '.claude', 'plugins', 'cache', 'agent-checkpoint', 'agent-checkpoint', '0.1.0', 'dist', 'agent-checkpoint-hook.cjs');
    expect(byId(doctor(git.env), id)).toMatchObject({ status: 'ok', title: expect.stringContaining(`runs ${cached}`) });
    expect(hook(['uninstall', '--agent', 'all', '--purge'], git.env).code).toBe(1);
    agent('claude', ['plugin', 'uninstall', 'agent-checkpoint@agent-checkpoint'], git.env);
    expect(hook(['uninstall', '--agent', 'all', '--purge'], git.env).code).toBe(0);
  });

  it('Gemini CLI: a linked extension is a working install and a moved folder is reported; the git URL form installs a copy', () => {
    const { env } = freshHome();
    agent('gemini', ['extensions', 'link', clone, '--consent'], env);
    const id = 'gemini.plugin.agent-checkpoint';
    expect(byId(doctor(env), id)).toMatchObject({ status: 'ok', title: expect.stringContaining(`runs ${clone}/plugins/agent-checkpoint/dist/agent-checkpoint-hook.cjs`) });
    expect(hook(['install', '--agent', 'gemini'], env).code).toBe(1);
    renameSync(clone, `${clone}-moved`);
    try {
      expect(byId(doctor(env), id)).toMatchObject({ status: 'fail', fix: expect.stringContaining('gemini extensions install <git-url>') });
    } finally {
      renameSync(`${clone}-moved`, clone);
    }

    const git = freshHome();
    agent('gemini', ['extensions', 'install', `ssh://git.invalid${bare}`, '--consent'], git.env);
    const copy = path.join(git.home, '.gemini', 'extensions', 'agent-checkpoint', 'plugins', 'agent-checkpoint', 'dist', 'agent-checkpoint-hook.cjs');
    expect(byId(doctor(git.env), id)).toMatchObject({ status: 'ok', title: expect.stringContaining(`runs ${copy}`) });
    agent('gemini', ['extensions', 'uninstall', 'agent-checkpoint'], git.env);
    expect(hook(['uninstall', '--agent', 'all', '--purge'], git.env).code).toBe(0);
  });

  it('Codex CLI: the plugin from a folder and from a git URL runs its cached copy', () => {
    const { home, env } = freshHome();
    agent('codex', ['plugin', 'marketplace', 'add', clone], env);
    agent('codex', ['plugin', 'add', 'agent-checkpoint@agent-checkpoint'], env);
    const cached = path.join(home, '.codex', 'plugins', 'cache', 'agent-checkpoint', 'agent-checkpoint', '0.1.0', 'dist', 'agent-checkpoint-hook.cjs');
    const id = 'codex.plugin.agent-checkpoint@agent-checkpoint';
    expect(byId(doctor(env), id)).toMatchObject({ status: 'ok', title: expect.stringContaining(`runs ${cached}`) });
    expect(hook(['install', '--agent', 'codex'], env).code).toBe(1);
    expect(hook(['install', '--agent', 'codex', '--force'], env).code).toBe(0);
    expect(byId(doctor(env), 'codex.install.twice')).toMatchObject({ status: 'fail', fix: expect.stringContaining('agent-checkpoint-hook uninstall --agent codex') });

    const git = freshHome();
    agent('codex', ['plugin', 'marketplace', 'add', GIT_URL], git.env);
    agent('codex', ['plugin', 'add', 'agent-checkpoint@agent-checkpoint'], git.env);
    expect(byId(doctor(git.env), id)).toMatchObject({ status: 'ok', title: expect.stringContaining('runs ') });
    agent('codex', ['plugin', 'remove', 'agent-checkpoint@agent-checkpoint'], git.env);
    expect(hook(['uninstall', '--agent', 'all', '--purge'], git.env).code).toBe(0);
  });
});
