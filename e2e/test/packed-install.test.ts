import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materializeExample } from '../../fixtures/example/materialize-example.mjs';
import { HOOK_BUNDLE } from '../src/harness/agent-checkpoint-bins.ts';
import { cleanEnv } from '../src/harness/packed-packages.ts';

// What a user gets from `npm install -g @agent-checkpoint/delivery-hook`: the packages as `pnpm pack`
// builds them (prepack runs each package's build), installed by npm into a temp prefix. The
// @agent-checkpoint tarballs satisfy each other; third-party dependencies come from the npm
// registry, as `pnpm install` does for the workspace. Nothing outside the temp dir is touched.

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PUBLISHED = ['core', 'transcript-claude', 'transcript-gemini', 'transcript-codex', 'transcript-copilot', 'transcript-qwen', 'transcript-pi', 'delivery-hook', 'delivery-tmux'];

let work: string;
let prefix: string;
let tarballs: Record<string, string>;

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
    expect(hook).toEqual(expect.arrayContaining(['package/dist/agent-checkpoint-hook.cjs', 'package/dist/agent-checkpoint-hook-main.cjs', 'package/dist/agent-checkpoint-hook.mjs', 'package/dist/index.js', 'package/README.md']));
    expect(tarList(tarballs['delivery-tmux']!)).toContain('package/dist/agent-checkpoint-tmux.mjs');
    expect(tarList(tarballs['core']!)).toEqual(expect.arrayContaining(['package/dist/index.js', 'package/schema.json']));
    // Every chunk in dist/ is one the current build imports (a clean dist/ per build).
    const installed = path.join(prefix, 'lib', 'node_modules', '@agent-checkpoint', 'delivery-hook', 'dist');
    // The entries are the published exports (the `./manage` entry of earlier versions moved to the
    // private setup-kit, which the bundles inline).
    const manifest = JSON.parse(readFileSync(path.join(installed, '..', 'package.json'), 'utf8')) as { exports: Record<string, string> };
    const entryFiles = Object.values(manifest.exports).map((target) => path.relative('dist', target));
    expect(entryFiles).toContain('index.js');
    const chunks = readdirSync(installed).filter((name) => name.endsWith('.js') && !entryFiles.includes(name));
    const entries = entryFiles.map((name) => readFileSync(path.join(installed, name), 'utf8')).join('\n');
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
