import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFY_OPTION_NAMES } from '../parse-notify-argv.ts';
import { createTmuxProgram } from './tmux-cli.ts';

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

// One CLI (issue 24.7): every set-up command's arguments and help come from its declaration on the
// CLI library the hook bin uses; the notify form Codex runs keeps its own small parser (fast path).
describe('agent-checkpoint-tmux help comes from the declarations', () => {
  const program = createTmuxProgram(async () => undefined).program;
  const COMMANDS: readonly Command[] = program.commands.filter((c) => c.name() !== 'help');
  const acceptedFlags = (command: Command): Set<string> => new Set(['--help', '-h', ...command.options.flatMap((o) => [o.long, o.short].filter((f): f is string => f !== undefined))]);
  const longFlags = (text: string): string[] => [...text.matchAll(/(?<![\w-])--[a-z][a-z-]*[a-z]/g)].map((m) => m[0]);

  it.each(COMMANDS.map((c) => [c.name(), c] as const))('%s --help lists exactly the options it accepts', async (name, command) => {
    const help = await cli(name, '--help');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    // Generated from this very declaration, then the command's own notes.
    expect(help.stdout.startsWith(command.helpInformation())).toBe(true);
    const accepted = acceptedFlags(command);
    for (const flag of accepted) if (flag.startsWith('--')) expect(help.stdout, `${name}: ${flag} missing from its help`).toMatch(new RegExp(`(?<![\\w-])${flag}(?![\\w-])`));
    for (const flag of longFlags(help.stdout)) expect(accepted.has(flag), `${name} --help names ${flag}, which it does not accept`).toBe(true);
    expect((await cli('help', name)).stdout).toBe(help.stdout);
  });

  it('the program help names only options a command accepts, or the notify form\'s own', async () => {
    const help = await cli('--help');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout.startsWith(program.helpInformation())).toBe(true);
    const all = new Set([...acceptedFlags(program), ...COMMANDS.flatMap((c) => [...acceptedFlags(c)]), ...NOTIFY_OPTION_NAMES]);
    for (const flag of longFlags(help.stdout)) expect(all.has(flag), `--help names ${flag}`).toBe(true);
  });

  it.each([
    ['install', '--bogus'],
    ['uninstall', '--print'],
    ['doctor', '--verbose'],
  ])('%s %s: rejected with exit 2 and one line on stderr', async (name, flag) => {
    const result = await cli(name, flag);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`error: unknown option '${flag}'\n`);
  });

  it.each([['-v'], ['--version'], ['-V'], ['version']])('%s prints the version, nothing else', async (flag) => {
    expect(await cli(flag)).toMatchObject({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it('no module parses its own arguments with node:util or prints a usage text of its own', () => {
    const src = join(import.meta.dirname, '..');
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !path.includes('__fixtures__')) {
          if (/Usage:|parseArgs\(|parseCommandArgs\(|\b[A-Z]+_USAGE\s*=/.test(readFileSync(path, 'utf8'))) offenders.push(relative(src, path));
        }
      }
    };
    walk(src);
    // detect-codex-queue.ts reads Codex's own `queue --help` ("Usage: codex queue …"); it prints nothing.
    expect(offenders).toEqual(['detect-codex-queue.ts']);
  });
});
