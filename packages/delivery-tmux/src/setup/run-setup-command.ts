import { currentDirectory, describeFileFailure, EXIT_FAILURE, SettingsFileError, stdoutStyle } from '@agent-checkpoint/setup-kit';
import type { NotifyDoctorOptions } from '../doctor/run-notify-doctor-command.ts';
import type { NotifyInstallOptions } from '../install/run-notify-install-command.ts';

/** A set-up command with its options, as commander parsed them (setup/tmux-cli.ts declares them). */
export type SetupRequest =
  | { readonly command: 'install' | 'uninstall'; readonly options: NotifyInstallOptions }
  | { readonly command: 'doctor'; readonly options: NotifyDoctorOptions };

/**
 * `install`, `uninstall`, `doctor`: set-up commands for people (exit codes matter here, unlike notify).
 * A config.toml that is not a regular file, or cannot be written, ends in one line and exit 1 (the
 * file as it was), never a stack trace; so does a current directory that no longer exists when it
 * is needed (a relative `$CODEX_HOME`).
 */
export async function runSetupCommand(request: SetupRequest): Promise<number> {
  const { command } = request;
  const context = {
    env: process.env,
    // Only a relative $CODEX_HOME needs it; a removed worktree must not turn into a raw exception.
    cwd: currentDirectory() ?? '/',
    write: (text: string) => new Promise<void>((resolve) => process.stdout.write(text, () => resolve())),
    writeError: (text: string) => void process.stderr.write(text),
    style: stdoutStyle(process.env),
  };
  try {
    switch (request.command) {
      case 'install':
      case 'uninstall':
        return await (await import('../install/run-notify-install-command.ts')).runNotifyInstallCommand(request.command, request.options, context);
      case 'doctor':
        return await (await import('../doctor/run-notify-doctor-command.ts')).runNotifyDoctorCommand(request.options, context);
    }
  } catch (error) {
    const untouched = error instanceof SettingsFileError ? ' Nothing was changed.' : '';
    process.stderr.write(`agent-checkpoint-tmux: ${command} failed: ${describeFileFailure(error)}.${untouched}\n`);
    return EXIT_FAILURE;
  }
}
