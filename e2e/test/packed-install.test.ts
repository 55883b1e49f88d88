import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materializeExample } from '../../fixtures/example/materialize-example.mjs';
import { HOOK_BUNDLE } from '../src/harness/agent-checkpoint-bins.ts';

// What a user gets from `npm install -g @agent-checkpoint/delivery-hook`: the packages as `pnpm pack`
// builds them (prepack runs each package's build), installed by npm into a temp prefix. The
// @agent-checkpoint tarballs satisfy each other; third-party dependencies come from the npm
// registry, as `pnpm install` does for the workspace. Nothing outside the temp dir is touched.

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PUBLISHED = ['core', 'transcript-claude', 'transcript-gemini', 'transcript-codex', 'delivery-hook', 'delivery-tmux'];

let work: string;
let prefix: string;
let tarballs: Record<string, string>;

/**
 * Our environment without the lifecycle variables of the `pnpm test` that runs us, so the nested tools
 * act as a user's would. Registry, proxy and certificate settings stay: the `npm_config_*` that pnpm
 * passes on (`npm_config_cafile` among them — removing it left npm retrying the registry until the time
 * limit on a machine behind a TLS-inspecting proxy) and the variables e2e/turbo.json lets through
 * turbo's strict environment.
 */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_(lifecycle|package)_|npm_(execpath|node_execpath|command)$|npm_config_user_agent$|PNPM_|pnpm_)/i.test(key)) env[key] = value;
  }
  return { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra };
}

beforeAll(() => {
  work = realpathSync(mkdtempSync(path.join(tmpdir(), 'ac-packed-')));
  const packs = path.join(work, 'packs');
  mkdirSync(packs);
  tarballs = {};
  for (const name of PUBLISHED) {
    const out = execFileSync('pnpm', ['pack', '--pack-destination', packs], { cwd: path.join(ROOT, 'packages', name), env: cleanEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
    const file = out.trim().split('\n').at(-1)!.trim();
    tarballs[name] = path.isAbsolute(file) ? file : path.join(packs, path.basename(file));
  }
  prefix = path.join(work, 'prefix');
  // npm's own network limits end a registry that cannot be reached with npm's message, well before
  // the test's time limit.
  const install = spawnSync('npm', ['install', '--global', '--prefix', prefix, '--fetch-retries=2', '--fetch-timeout=30000', ...PUBLISHED.map((name) => tarballs[name]!)], {
    env: cleanEnv(),
    encoding: 'utf8',
    timeout: 240_000,
  });
  if (install.status !== 0) throw new Error(`npm install -g of the packed tarballs failed (${install.error?.message ?? `exit ${install.status}`}):\n${install.stderr.slice(-2000)}`);
}, 600_000);
afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

function tarList(tarball: string): string[] {
  return execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
}

describe('the packed packages, installed with npm install -g', () => {
  it('ship the bins with nothing stale: launcher, main bundle, legacy shim; no leftovers of earlier builds', () => {
    const hook = tarList(tarballs['delivery-hook']!);
    expect(hook).toEqual(expect.arrayContaining(['package/dist/agent-checkpoint-hook.cjs', 'package/dist/agent-checkpoint-hook-main.cjs', 'package/dist/agent-checkpoint-hook.mjs', 'package/dist/index.js', 'package/dist/manage/index.js', 'package/README.md']));
    expect(tarList(tarballs['delivery-tmux']!)).toContain('package/dist/agent-checkpoint-tmux.mjs');
    expect(tarList(tarballs['core']!)).toEqual(expect.arrayContaining(['package/dist/index.js', 'package/schema.json']));
    // Every chunk in dist/ is one the current build imports (a clean dist/ per build).
    const installed = path.join(prefix, 'lib', 'node_modules', '@agent-checkpoint', 'delivery-hook', 'dist');
    const chunks = readdirSync(installed).filter((name) => name.endsWith('.js') && name !== 'index.js');
    const entries = ['index.js', path.join('manage', 'index.js')].map((name) => readFileSync(path.join(installed, name), 'utf8')).join('\n');
    const referenced = (chunk: string): boolean => entries.includes(chunk) || chunks.some((other) => other !== chunk && readFileSync(path.join(installed, other), 'utf8').includes(chunk));
    expect(chunks.filter((chunk) => !referenced(chunk))).toEqual([]);
  });

  it('put working bins on the PATH of the prefix', () => {
    const version = JSON.parse(readFileSync(path.join(ROOT, 'packages', 'delivery-hook', 'package.json'), 'utf8')).version as string;
    expect(execFileSync(path.join(prefix, 'bin', 'agent-checkpoint-hook'), ['version'], { encoding: 'utf8' }).trim()).toBe(version);
    expect(execFileSync(path.join(prefix, 'bin', 'agent-checkpoint-tmux'), ['--version'], { encoding: 'utf8' }).trim()).toBe(version);
  });

  it('checkpoint the bundled example turn exactly as the workspace bin does', () => {
    const example = materializeExample(path.join(work, 'example'));
    const payload = readFileSync(example.payload);
    const run = (argv: string[], stateDir: string) =>
      spawnSync(process.execPath, argv, {
        cwd: example.repo,
        input: payload,
        encoding: 'utf8',
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: example.home, AGENT_CHECKPOINT_STATE_DIR: stateDir },
        timeout: 30_000,
      });
    const installedBin = path.join(prefix, 'lib', 'node_modules', '@agent-checkpoint', 'delivery-hook', 'dist', 'agent-checkpoint-hook.cjs');
    const installed = run([installedBin, 'claude'], path.join(work, 'state-installed'));
    const workspace = run([HOOK_BUNDLE, 'claude'], path.join(work, 'state-workspace'));
    expect(installed.status, installed.stderr).toBe(0);
    expect(JSON.parse(installed.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('Restart the pricing daemon') });
    expect(installed.stdout.replaceAll(path.join(work, 'state-installed'), '<state>')).toBe(workspace.stdout.replaceAll(path.join(work, 'state-workspace'), '<state>'));
  });

  it('install writes hook commands that point at the installed bundle (npm bin symlink resolved)', () => {
    const home = path.join(work, 'home-install');
    mkdirSync(home);
    const out = execFileSync(path.join(prefix, 'bin', 'agent-checkpoint-hook'), ['install', '--agent', 'claude', '--print'], { encoding: 'utf8', env: { ...cleanEnv(), HOME: home } });
    const bundle = path.join(realpathSync(prefix), 'lib', 'node_modules', '@agent-checkpoint', 'delivery-hook', 'dist', 'agent-checkpoint-hook.cjs');
    expect(out).toContain(`${realpathSync(process.execPath)} ${bundle} claude`);
  });
});
