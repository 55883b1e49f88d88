import { EXIT_USAGE } from '../manage/command-args.ts';
import { stdoutStyle } from '../manage/terminal-style.ts';

/**
 * `install`, `uninstall`, `doctor`, `explain`: set-up and debugging commands for people. Each module
 * is imported only when its command runs.
 */
export async function runSetupCommand(command: string, args: readonly string[], write: (text: string) => Promise<void>): Promise<number> {
  const context = {
    env: process.env,
    cwd: process.cwd(),
    write,
    writeError: (text: string) => void process.stderr.write(text),
    style: stdoutStyle(process.env),
  };
  switch (command) {
    case 'install':
    case 'uninstall':
      return (await import('../install/run-install-command.ts')).runInstallCommand(command, args, context);
    case 'doctor':
      return (await import('../doctor/run-doctor-command.ts')).runDoctorCommand(args, context);
    case 'explain':
      return (await import('../explain/run-explain-command.ts')).runExplainCommand(args, context);
    default:
      process.stderr.write(`agent-checkpoint: unknown command ${JSON.stringify(command)}\n`);
      return EXIT_USAGE;
  }
}
