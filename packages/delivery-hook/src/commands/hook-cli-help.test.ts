import type { Command } from 'commander';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';
import { createHookProgram } from './hook-cli.ts';

// One CLI (issue 24.7): every command's help is what commander generates from the command's declared
// options, as the built bin prints it; every option the help names is one the command accepts; every
// option the command accepts is in its help; and no module prints a help text of its own.

let sandbox: HookSandbox;
beforeAll(() => {
  sandbox = createHookSandbox();
});
afterAll(() => {
  sandbox.remove();
});

const program = createHookProgram(async () => undefined).program;
/** Every command, hidden hook modes included (they answer --help too). */
const COMMANDS: readonly Command[] = program.commands.filter((c) => c.name() !== 'help');

/** The long (or only) flag of each option a command accepts, `--help` included. */
function acceptedFlags(command: Command): Set<string> {
  const flags = new Set(['--help', '-h']);
  for (const option of command.options) {
    if (option.long !== undefined) flags.add(option.long);
    if (option.short !== undefined) flags.add(option.short);
  }
  return flags;
}

/** The `--flag` words of a text (not `--` alone, not inside a longer word). */
const longFlags = (text: string): string[] => [...text.matchAll(/(?<![\w-])--[a-z][a-z-]*[a-z]/g)].map((m) => m[0]);

async function binHelp(args: readonly string[]): Promise<string> {
  const result = await runHookBundle({ args, env: { ...sandbox.env, NO_COLOR: '1' }, cwd: sandbox.root });
  expect(result, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
  return result.stdout;
}

describe('help comes from the declarations', () => {
  it.each(COMMANDS.map((c) => [c.name(), c] as const))('%s --help', async (name, command) => {
    const help = await binHelp([name, '--help']);
    // Generated: the usage, description and option list are commander's, from this very declaration.
    expect(help.startsWith(command.helpInformation())).toBe(true);
    const accepted = acceptedFlags(command);
    // Every accepted option is listed…
    for (const flag of accepted) if (flag.startsWith('--')) expect(help, `${name}: ${flag} missing from its help`).toMatch(new RegExp(`(?<![\\w-])${flag}(?![\\w-])`));
    // … and every option the help names (in the generated part or the text after it) is accepted, or
    // is another command's, named on the same line (`off --current` in a description of outcomes).
    for (const line of help.split('\n')) {
      for (const flag of longFlags(line)) {
        if (accepted.has(flag)) continue;
        const other = COMMANDS.find((c) => c !== command && new RegExp(`(?<![\\w-])${c.name()}(?![\\w-])`).test(line) && acceptedFlags(c).has(flag));
        expect(other, `${name} --help names ${flag}, which it does not accept: ${line.trim()}`).toBeDefined();
      }
    }
    // `help <command>` prints the same.
    if (!command.name().startsWith('-')) expect(await binHelp(['help', name])).toBe(help);
  }, 60_000);

  it('the program help names only options some command accepts', async () => {
    const help = await binHelp(['--help']);
    expect(help.startsWith(program.helpInformation())).toBe(true);
    const all = new Set([...acceptedFlags(program), ...COMMANDS.flatMap((c) => [...acceptedFlags(c)])]);
    for (const flag of longFlags(help)) expect(all.has(flag), `--help names ${flag}`).toBe(true);
  });

  it('an option the help lists is accepted by the bin (a spot check of each command: its first declared option)', async () => {
    for (const command of COMMANDS.filter((c) => !(c as unknown as { _hidden: boolean })._hidden)) {
      const option = command.options.find((o) => o.long !== undefined && !o.required && !o.optional && !o.negate);
      if (option === undefined) continue;
      // A boolean option plus --help: commander validates the option before printing help.
      const result = await runHookBundle({ args: [command.name(), option.long!, '--help'], env: { ...sandbox.env, NO_COLOR: '1' }, cwd: sandbox.root });
      expect(result.code, `${command.name()} ${option.long}`).toBe(0);
    }
  }, 60_000);

  it('no module of the bin prints its own usage text or parses its own arguments', () => {
    const src = join(import.meta.dirname, '..');
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !path.includes('test-support')) {
          const text = readFileSync(path, 'utf8');
          if (/Usage:|parseArgs\(|parseCommandArgs\(|\b[A-Z]+_USAGE\s*=/.test(text)) offenders.push(relative(src, path));
        }
      }
    };
    walk(src);
    expect(offenders).toEqual([]);
  });
});
