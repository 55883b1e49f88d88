import { describe, expect, it } from 'vitest';
import { createCliProgram, isNearCommand } from './cli-program.ts';

describe('isNearCommand', () => {
  const words = ['install', 'uninstall', 'doctor', 'off', 'on', 'status'];
  it.each([['instal'], ['isntall'], ['doctr'], ['offf'], ['statsu']])('%s is a typo of a command', (word) => {
    expect(isNearCommand(word, words)).toBe(true);
  });
  it.each([['cursor'], ['{"type":"agent-turn-complete"}'], ['claude'], ['x'], ['']])('%j is not', (word) => {
    expect(isNearCommand(word, words)).toBe(false);
  });
});

describe('createCliProgram', () => {
  function program(env: Record<string, string> = {}) {
    let out = '';
    let err = '';
    const cli = createCliProgram('tool', '1.2.3', { env, write: async (t) => void (out += t), writeError: (t) => void (err += t), stdoutIsTTY: false, stderrIsTTY: false });
    cli.program.command('install').option('--dry-run').action(() => cli.setExitCode(7));
    return { cli, output: () => ({ out, err }) };
  }

  it('runs a command and returns the code it set', async () => {
    const { cli } = program();
    expect(await cli.run(['install', '--dry-run'])).toBe(7);
  });

  it('help and version: exit 0 on stdout; usage errors: exit 2 on stderr with a suggestion', async () => {
    const a = program();
    expect(await a.cli.run(['--version'])).toBe(0);
    expect(a.output()).toEqual({ out: '1.2.3\n', err: '' });
    for (const flag of ['-v', '-V']) {
      const v = program();
      expect(await v.cli.run([flag])).toBe(0);
      expect(v.output()).toEqual({ out: '1.2.3\n', err: '' });
    }
    const b = program();
    expect(await b.cli.run(['install', '--help'])).toBe(0);
    expect(b.output().out).toContain('Usage: tool install');
    const c = program();
    expect(await c.cli.run(['instal'])).toBe(2);
    expect(c.output().err).toContain('(Did you mean install?)');
    expect(c.output().out).toBe('');
    const d = program();
    expect(await d.cli.run([])).toBe(2);
    expect(d.output().err).toContain('Usage: tool');
  });

  it('colours help only when forced or on a terminal', async () => {
    const plain = program({ NO_COLOR: '1' });
    await plain.cli.run(['--help']);
    expect(plain.output().out).not.toContain('\u001b[');
    const forced = program({ FORCE_COLOR: '1' });
    await forced.cli.run(['--help']);
    expect(forced.output().out).toContain('\u001b[');
  });
});
