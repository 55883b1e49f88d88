import { EXIT_USAGE, stdoutStyle } from '@agent-checkpoint/delivery-hook/manage';

/** `install`, `uninstall`, `doctor`: set-up commands for people (exit codes matter here, unlike notify). */
export async function runSetupCommand(command: string, args: readonly string[]): Promise<number> {
  const context = {
    env: process.env,
    cwd: process.cwd(),
    write: (text: string) => new Promise<void>((resolve) => process.stdout.write(text, () => resolve())),
    writeError: (text: string) => void process.stderr.write(text),
    style: stdoutStyle(process.env),
  };
  switch (command) {
    case 'install':
    case 'uninstall':
      return (await import('../install/run-notify-install-command.ts')).runNotifyInstallCommand(command, args, context);
    case 'doctor':
      return (await import('../doctor/run-notify-doctor-command.ts')).runNotifyDoctorCommand(args, context);
    default:
      process.stderr.write(`agent-checkpoint-tmux: unknown command ${JSON.stringify(command)}\n`);
      return EXIT_USAGE;
  }
}
