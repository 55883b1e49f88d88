import { isAbsolute, resolve } from 'node:path';
import { describeErrno, EXIT_FAILURE, stdoutStyle, type TerminalStyle } from '@agent-checkpoint/setup-kit';
import { currentDirectory, directoryProblem } from '../run-cwd.ts';
import { defaultHookProgram } from '../install/hook-command.ts';
import { terminalToolOf } from '../route-commands.ts';

/** The set-up and debugging commands for people that run through {@link runSetupCommand}. */
export type SetupCommandName = 'install' | 'uninstall' | 'doctor' | 'explain' | 'trust' | 'init' | 'config' | 'presets';

/** What every set-up command gets from the process (temp dirs in tests). */
export interface SetupCommandContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory the command works for: the current directory (`--cwd` is resolved against it). */
  readonly cwd: string;
  readonly write: (text: string) => Promise<void>;
  readonly writeError: (text: string) => void;
  readonly style: TerminalStyle;
  /**
   * The command-line tool as a person runs it from a terminal on the route of the running bin
   * (route-commands.ts `terminalToolOf`): every follow-up command a set-up command names starts with
   * it. Default `agent-checkpoint-hook`, the package's bin.
   */
  readonly tool?: string;
}

/** A command's implementation, given the options commander parsed and the context. */
export type SetupRunner<O> = (options: O, context: SetupCommandContext) => Promise<number>;

/**
 * `install`, `uninstall`, `doctor`, `explain`, `trust`, `init`, `config`, `presets`: set-up and
 * debugging commands for people, run with their options as commander parsed them (hook-cli.ts);
 * each module is imported only when its command runs.
 *
 * The directory they work for is `--cwd` (`cwdOption`), else the current directory — which may be
 * gone (a removed worktree): then, or when `--cwd` names no directory, the command says so in one
 * line and exits 1 instead of failing later with a raw exception. Any other unexpected failure is
 * one line too.
 */
export async function runSetupCommand(
  command: SetupCommandName,
  cwdOption: string | undefined,
  write: (text: string) => Promise<void>,
  run: (context: SetupCommandContext) => Promise<number>,
): Promise<number> {
  const prefix = `agent-checkpoint: ${command}:`;
  const current = currentDirectory();
  if (cwdOption === undefined && current === undefined) {
    process.stderr.write(`${prefix} the current directory no longer exists (a removed worktree?); cd into an existing directory, or pass --cwd <absolute directory>\n`);
    return EXIT_FAILURE;
  }
  if (cwdOption !== undefined) {
    const problem = cwdOptionProblem(cwdOption, current);
    if (problem !== undefined) {
      process.stderr.write(`${prefix} --cwd ${cwdOption} ${problem}\n`);
      return EXIT_FAILURE;
    }
  }
  const context: SetupCommandContext = {
    env: process.env,
    // Only reached without a current directory when --cwd is absolute.
    cwd: current ?? (cwdOption !== undefined && isAbsolute(cwdOption) ? cwdOption : '/'),
    write,
    writeError: (text: string) => void process.stderr.write(text),
    style: stdoutStyle(process.env),
    tool: terminalToolOf(defaultHookProgram().bundle, process.env),
  };
  try {
    return await run(context);
  } catch (error) {
    process.stderr.write(`${prefix} failed: ${describeErrno(error)}\n`);
    return EXIT_FAILURE;
  }
}

/** Why `dir` (relative to `current`) cannot be worked in, or undefined when it can. */
function cwdOptionProblem(dir: string, current: string | undefined): string | undefined {
  if (!isAbsolute(dir) && current === undefined) return 'is relative, and the current directory no longer exists (a removed worktree?); pass an absolute directory';
  return directoryProblem(current === undefined ? dir : resolve(current, dir));
}
