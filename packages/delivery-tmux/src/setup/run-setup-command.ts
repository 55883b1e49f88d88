import { currentDirectory, describeFileFailure, EXIT_FAILURE, EXIT_USAGE, SettingsFileError, stdoutStyle } from '@agent-checkpoint/setup-kit';

/**
 * `install`, `uninstall`, `doctor`: set-up commands for people (exit codes matter here, unlike notify).
 * A config.toml that is not a regular file, or cannot be written, ends in one line and exit 1 (the
 * file as it was), never a stack trace; so does a current directory that no longer exists when it
 * is needed (a relative `$CODEX_HOME`).
 */
export async function runSetupCommand(command: string, args: readonly string[]): Promise<number> {
  const context = {
    env: process.env,
    // Only a relative $CODEX_HOME needs it; a removed worktree must not turn into a raw exception.
    cwd: currentDirectory() ?? '/',
    write: (text: string) => new Promise<void>((resolve) => process.stdout.write(text, () => resolve())),
    writeError: (text: string) => void process.stderr.write(text),
    style: stdoutStyle(process.env),
  };
  try {
    switch (command) {
      case 'install':
      case 'uninstall':
        return await (await import('../install/run-notify-install-command.ts')).runNotifyInstallCommand(command, args, context);
      case 'doctor':
        return await (await import('../doctor/run-notify-doctor-command.ts')).runNotifyDoctorCommand(args, context);
      default:
        process.stderr.write(`agent-checkpoint-tmux: unknown command ${JSON.stringify(command)}\n`);
        return EXIT_USAGE;
    }
  } catch (error) {
    const untouched = error instanceof SettingsFileError ? ' Nothing was changed.' : '';
    process.stderr.write(`agent-checkpoint-tmux: ${command} failed: ${describeFileFailure(error)}.${untouched}\n`);
    return EXIT_FAILURE;
  }
}
