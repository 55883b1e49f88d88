import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The set-up commands of the bundled agent-checkpoint-tmux (issue 15): --help on each, typos exit 2
// with a suggestion, -V; notify runs (a payload, `--`) are not mistaken for commands.

let dir: string;
let bundle: string;
let home: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ac-tmux-cli-'));
  bundle = join(dir, 'agent-checkpoint-tmux.mjs');
  home = join(dir, 'home');
  const built = await run(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'bundle-cli.mjs'), bundle]);
  if (built.code !== 0) throw new Error(built.stderr);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(file: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home ?? tmpdir(), CODEX_HOME: join(home ?? tmpdir(), '.codex'), AGENT_CHECKPOINT_STATE_DIR: join(dir, 'state') }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
const cli = (...args: string[]) => run(process.execPath, [bundle, ...args]);

describe('agent-checkpoint-tmux set-up commands', () => {
  it.each([['install'], ['uninstall'], ['doctor'], ['version']])('%s --help → exit 0, usage on stdout', async (name) => {
    for (const args of [[name, '--help'], [name, '-h'], ['help', name]]) {
      const result = await cli(...args);
      expect(result, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/Usage/);
      expect(result.stdout).toContain(name);
    }
  });

  it.each([
    ['install', 'instal'],
    ['uninstall', 'uninstal'],
    ['doctor', 'doctr'],
  ])('%s mistyped as %s → exit 2 with a suggestion', async (name, typo) => {
    const result = await cli(typo);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Did you mean ${name}?`);
  });

  it('an unknown option of a command → exit 2', async () => {
    const result = await cli('install', '--dry-rn');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Did you mean --dry-run?');
  });

  it.each([['-V'], ['--version'], ['version']])('%s prints the version', async (flag) => {
    expect(await cli(flag)).toMatchObject({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it('notify runs stay notify runs: a payload, a chain after --, and no argument all exit 0', async () => {
    for (const args of [['{}'], ['--', 'true', '{}'], [], ['--transport=tmux', '{}']]) {
      const result = await cli(...args);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stderr).toMatch(/^agent-checkpoint-tmux: /);
    }
  });
});
