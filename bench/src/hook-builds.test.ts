import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildHookBin, loadBuildHook, moduleCount } from './hook-builds.ts';
import { benchPaths } from './repo-root.ts';

const paths = benchPaths();
const work = mkdtempSync(join(tmpdir(), 'ac-bench-builds-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('loadBuildHook', () => {
  it('exposes the shipped main-bundle options of build-hook.mjs (CommonJS, zod locale stub)', async () => {
    const hook = await loadBuildHook(paths);
    const options = hook.mainBundleOptions('/x/main.cjs');
    expect(options.format).toBe('cjs');
    expect(options.outfile).toBe('/x/main.cjs');
    expect(options.plugins).toContain(hook.stubZodLocales);
    expect(hook.HOOK_MAIN_NAME).toBe('agent-checkpoint-hook-main.cjs');
  });
});

describe('buildHookBin', () => {
  it('builds a changed main bundle behind a launcher that carries its build id, and the bin runs', async () => {
    const bin = await buildHookBin(paths, join(work, 'unminified'), (o) => ({ ...o, minify: false }));
    const main = readFileSync(bin.main);
    // Unminified: esbuild's per-module path comments, which the CPU profile attribution reads.
    expect(main.toString('utf8')).toMatch(/^\/\/ .*packages\/delivery-hook\/src\/cli\.ts$/m);
    const buildId = createHash('sha256').update(main).digest('hex').slice(0, 32);
    expect(readFileSync(bin.launcher, 'utf8')).toContain(buildId);
    expect(bin.bytes).toBe(bin.mainBytes + bin.launcherBytes);
    expect(moduleCount(bin.metafile)).toBeGreaterThan(50);
    const version = (JSON.parse(readFileSync(join(paths.root, 'packages', 'delivery-hook', 'package.json'), 'utf8')) as { version: string }).version;
    const out = execFileSync(process.execPath, [bin.launcher, 'version'], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', AGENT_CHECKPOINT_CODE_CACHE: '0' } });
    expect(out).toContain(version);
  }, 120_000);
});
