import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { pluginToolBeside } from '../src/route-commands.ts';

/**
 * Issue 24: the plugin's command-line tool, `plugins/agent-checkpoint/bin/agent-checkpoint-hook` (a
 * POSIX sh script), run from a plugin installed under a path a user can have — `"`, `'`, `$(…)`,
 * backquotes, `;`, spaces — by its path, through a symlink (a user's `~/.local/bin` link), and from a
 * PATH entry (Claude Code puts the plugin's bin/ on its Bash tool's PATH): our bin answers, nothing in
 * the path runs. Without `node` on the PATH it says so on stderr and exits 127. The plugin's `dist`
 * links to the bin built from these sources.
 */

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const builtDist = join(repoRoot, 'packages', 'delivery-hook', 'dist');
const SCRIPT = join(repoRoot, 'plugins', 'agent-checkpoint', 'bin', 'agent-checkpoint-hook');
const HOSTILE_DIR = `inst "dq" 'sq' $(touch MARKER1) \`touch MARKER2\` ; touch MARKER3 #`;

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A plugin root under a hostile directory: the real script in bin/, dist/ linked to the built bin. */
function installPlugin(): { root: string; home: string; tool: string } {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'ac-plugin-tool-')));
  temps.push(home);
  const root = join(home, HOSTILE_DIR, 'agent-checkpoint');
  mkdirSync(join(root, 'bin'), { recursive: true });
  copyFileSync(SCRIPT, join(root, 'bin', 'agent-checkpoint-hook'));
  symlinkSync(builtDist, join(root, 'dist'));
  return { root, home, tool: join(root, 'bin', 'agent-checkpoint-hook') };
}

function run(argv: readonly string[], cwd: string, path: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(argv[0]!, argv.slice(1), { cwd, env: { PATH: path, HOME: cwd }, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Files named MARKER* (the hostile directory's own name holds the word, so by base name). */
const markers = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => basename(f).startsWith('MARKER'));
const NODE_PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;

describe('plugins/agent-checkpoint/bin/agent-checkpoint-hook', () => {
  it('by its path, through a symlink elsewhere, and by name on the PATH: the bin answers; the path runs nothing', () => {
    const { home, tool, root } = installPlugin();
    const version = run([tool, '--version'], home, NODE_PATH);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^(\d+\.\d+\.\d+|dev)/);
    mkdirSync(join(home, 'links'));
    symlinkSync(tool, join(home, 'links', 'ach'));
    expect(run([join(home, 'links', 'ach'), '--version'], home, NODE_PATH).stdout).toBe(version.stdout);
    // The way an agent's shell finds it: a PATH entry, the bare name (sh -c, as a Bash tool runs it).
    const onPath = run(['/bin/sh', '-c', 'agent-checkpoint-hook slash status'], home, `${join(root, 'bin')}:${NODE_PATH}`);
    expect(onPath.code, onPath.stderr).toBe(0);
    expect(onPath.stdout).toContain('all sessions: on');
    expect(markers(home)).toEqual([]);
  });

  it('without node on the PATH: one clear line and exit 127', () => {
    const { home, tool } = installPlugin();
    const result = run(['/bin/sh', tool, '--version'], home, '/nonexistent');
    expect(result.code).toBe(127);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('agent-checkpoint-hook: node was not found on PATH; install Node.js 20 or newer (https://nodejs.org/) and run this again.\n');
  });

  it('status and doctor find it beside the running bundle (pluginToolBeside); a package install has none', () => {
    const { root } = installPlugin();
    expect(pluginToolBeside(join(root, 'dist', 'agent-checkpoint-hook.cjs'))).toBe(join(root, 'bin', 'agent-checkpoint-hook'));
    expect(pluginToolBeside(join(builtDist, 'agent-checkpoint-hook.cjs'))).toBeUndefined();
  });
});
