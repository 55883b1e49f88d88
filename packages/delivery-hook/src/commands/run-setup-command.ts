import { isAbsolute, resolve } from 'node:path';
import { createProgressLine, describeErrno, EXIT_FAILURE, EXIT_USAGE, stdoutStyle } from '@agent-checkpoint/setup-kit';
import { currentDirectory, directoryProblem } from '../run-cwd.ts';

/**
 * `install`, `uninstall`, `doctor`, `explain`, `trust`, `init`, `config`, `presets`: set-up and debugging commands for people. Each module
 * is imported only when its command runs.
 *
 * The directory they work for is `--cwd`, else the current directory — which may be gone (a removed
 * worktree): then, or when `--cwd` names no directory, the command says so in one line and exits 1
 * instead of failing later with a raw exception. Any other unexpected failure is one line too.
 */
export async function runSetupCommand(command: string, args: readonly string[], write: (text: string) => Promise<void>): Promise<number> {
  const prefix = `agent-checkpoint: ${command}:`;
  const given = cwdOption(args);
  const wantsHelp = args.includes('--help') || args.includes('-h');
  const current = currentDirectory();
  if (!wantsHelp && given === undefined && current === undefined) {
    process.stderr.write(`${prefix} the current directory no longer exists (a removed worktree?); cd into an existing directory, or pass --cwd <absolute directory>\n`);
    return EXIT_FAILURE;
  }
  if (!wantsHelp && given !== undefined) {
    const problem = cwdOptionProblem(given, current);
    if (problem !== undefined) {
      process.stderr.write(`${prefix} --cwd ${given} ${problem}\n`);
      return EXIT_FAILURE;
    }
  }
  const context = {
    env: process.env,
    // Only reached without a current directory when --cwd is absolute (or for --help, which uses none).
    cwd: current ?? (given !== undefined && isAbsolute(given) ? given : '/'),
    write,
    writeError: (text: string) => void process.stderr.write(text),
    style: stdoutStyle(process.env),
  };
  try {
    switch (command) {
      case 'install':
      case 'uninstall':
        return await (await import('../install/run-install-command.ts')).runInstallCommand(command, args, context);
      case 'doctor':
        // Its checks take seconds (the agents' --version): show which are still running, on a terminal.
        return await (await import('../doctor/run-doctor-command.ts')).runDoctorCommand(args, {
          ...context,
          ...(process.stderr.isTTY ? { progress: createProgressLine(process.stderr, 'doctor') } : {}),
        });
      case 'explain':
        return await (await import('../explain/run-explain-command.ts')).runExplainCommand(args, context);
      case 'trust':
        return await (await import('../trust/run-trust-command.ts')).runTrustCommand(args, context);
      case 'init':
        return await (await import('../config-cli/run-init-command.ts')).runInitCommand(args, context);
      case 'config':
        return await (await import('../config-cli/run-config-command.ts')).runConfigCommand(args, context);
      case 'presets':
        return await (await import('../config-cli/run-presets-command.ts')).runPresetsCommand(args, context);
      default:
        process.stderr.write(`agent-checkpoint: unknown command ${JSON.stringify(command)}\n`);
        return EXIT_USAGE;
    }
  } catch (error) {
    process.stderr.write(`${prefix} failed: ${describeErrno(error)}\n`);
    return EXIT_FAILURE;
  }
}

/** The value of `--cwd DIR` / `--cwd=DIR`, if given (the command's own parser validates the rest). */
function cwdOption(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return undefined;
    if (arg === '--cwd') return args[i + 1];
    if (arg.startsWith('--cwd=')) return arg.slice('--cwd='.length);
  }
  return undefined;
}

/** Why `dir` (relative to `current`) cannot be worked in, or undefined when it can. */
function cwdOptionProblem(dir: string, current: string | undefined): string | undefined {
  if (!isAbsolute(dir) && current === undefined) return 'is relative, and the current directory no longer exists (a removed worktree?); pass an absolute directory';
  return directoryProblem(current === undefined ? dir : resolve(current, dir));
}
