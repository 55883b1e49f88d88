import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';

// The conventional CLI of the built bin (issue 15): every subcommand answers --help with exit 0 and
// usage on stdout, a typo of it exits 2 with a suggestion, -v / -V print the version.

let sandbox: HookSandbox;
beforeEach(() => {
  sandbox = createHookSandbox();
});
afterEach(() => {
  sandbox.remove();
});

const VERSION = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

/** Management commands: [name, a typo of it]. */
const COMMANDS: ReadonlyArray<[string, string]> = [
  ['off', 'offf'],
  ['on', 'onn'],
  ['status', 'statsu'],
  ['install', 'instal'],
  ['uninstall', 'unistall'],
  ['doctor', 'docter'],
  ['init', 'innit'],
  ['config', 'confg'],
  ['presets', 'presest'],
  ['explain', 'explian'],
  ['trust', 'turst'],
  ['resume-prompt', 'resume-promt'],
  ['state', 'stat'],
  ['version', 'verison'],
];

/** Modes agents run; `--help` must print help, not be taken as an agent name or wait for stdin. */
const HOOK_MODES: ReadonlyArray<readonly string[]> = [['claude'], ['gemini'], ['codex'], ['hook'], ['hook', 'claude'], ['session-start'], ['session-start', 'claude'], ['pre-compact', 'gemini'], ['post-tool', 'codex'], ['statusline']];

describe('--help on every subcommand', () => {
  it.each(COMMANDS.map(([name]) => [name]))('%s --help → exit 0, usage on stdout', async (name) => {
    for (const flag of ['--help', '-h']) {
      const result = await runHookBundle({ args: [name, flag], env: sandbox.env });
      expect(result, `${name} ${flag}`).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/Usage:/);
      expect(result.stdout).toContain(name);
    }
  });

  it('help <command> prints the same text as <command> --help', async () => {
    for (const [name] of COMMANDS) {
      const viaHelp = await runHookBundle({ args: ['help', name], env: sandbox.env });
      const direct = await runHookBundle({ args: [name, '--help'], env: sandbox.env });
      expect(viaHelp.code, name).toBe(0);
      expect(viaHelp.stdout, name).toBe(direct.stdout);
    }
  });

  it.each(HOOK_MODES.map((args) => [args.join(' ')]))('hook mode "%s --help" prints help without reading stdin', async (joined) => {
    const args = joined.split(' ');
    // stdin stays open: a hook run would wait for it until its deadline.
    const result = await runHookBundle({ args: [...args, '--help'], env: { ...sandbox.env, AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '20000' }, stdin: { keepOpen: '' }, killAfterMs: 15_000 });
    expect(result).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(result.stdout).toMatch(/Usage:/);
    expect(result.stdout).toContain(args[0]);
  });

  it('the top-level help lists the commands and the hook modes', async () => {
    const result = await runHookBundle({ args: ['--help'], env: sandbox.env });
    expect(result.code).toBe(0);
    for (const [name] of COMMANDS) expect(result.stdout).toContain(name);
    expect(result.stdout).toContain('agent-checkpoint-hook <claude|gemini|codex|copilot|qwen|pi>');
  });
});

describe('usage errors exit 2 with a suggestion', () => {
  it.each(COMMANDS)('%s mistyped as %s', async (name, typo) => {
    const result = await runHookBundle({ args: [typo], env: sandbox.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`unknown command '${typo}'`);
    expect(result.stderr).toContain(`Did you mean ${name}?`);
  });

  it('a mistyped option of a command', async () => {
    const result = await runHookBundle({ args: ['install', '--agent', 'claude', '--dry-rn'], env: sandbox.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Did you mean --dry-run?');
    const status = await runHookBundle({ args: ['status', '--jsn'], env: sandbox.env });
    expect(status.code).toBe(2);
    expect(status.stderr).toContain('Did you mean --json?');
  });

  it('a word that is no command and no typo of one is still a hook run with an unknown agent: exit 0', async () => {
    for (const args of [['cursor'], ['claudee'], ['--bogus']]) {
      const result = await runHookBundle({ args, stdin: '{}', env: sandbox.env });
      expect(result, args.join(' ')).toMatchObject({ code: 0, stdout: '' });
      expect(result.stderr).toMatch(/unknown agent/);
    }
  });
});

describe('version', () => {
  it.each([['-v'], ['-V'], ['--version'], ['version']])('%s prints the package version', async (flag) => {
    const result = await runHookBundle({ args: [flag], env: sandbox.env });
    expect(result).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('-V after a subcommand is not the version (options belong to their command)', async () => {
    const result = await runHookBundle({ args: ['status', '-V'], env: sandbox.env });
    expect(result.code).toBe(2);
  });
});

describe('colour', () => {
  it('plain text when stdout is not a terminal or NO_COLOR is set; FORCE_COLOR turns it on', async () => {
    const esc = '\u001b[';
    expect((await runHookBundle({ args: ['--help'], env: sandbox.env })).stdout).not.toContain(esc);
    expect((await runHookBundle({ args: ['--help'], env: { ...sandbox.env, FORCE_COLOR: '1' } })).stdout).toContain(esc);
    expect((await runHookBundle({ args: ['presets'], env: { ...sandbox.env, FORCE_COLOR: '1' } })).stdout).toContain(esc);
    expect((await runHookBundle({ args: ['presets'], env: { ...sandbox.env, NO_COLOR: '1' } })).stdout).not.toContain(esc);
  });
});
