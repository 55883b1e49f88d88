import { addHelpCommand, createCliProgram, delegatedCommand, isNearCommand, type CliProgram } from '@agent-checkpoint/setup-kit/cli-program';
import { USAGE } from '../run-notify.ts';

/** The version `--version` of the notify parser prints too. */
export const TMUX_VERSION = '0.1.0';

const SETUP_COMMANDS = ['install', 'uninstall', 'doctor'];

/**
 * Whether the arguments are for the set-up parser rather than a notify run: a set-up command,
 * `help`/`version`/`-V`, or a near miss of one (`instal`: exit 2 with "did you mean"). Codex always
 * passes its JSON payload last, and options as `--name=value`; `--help`/`--version` stay with the
 * notify parser, which prints the notify usage.
 */
export function isSetupInvocation(argv: readonly string[]): boolean {
  const first = argv[0];
  if (first === undefined) return false;
  const words = [...SETUP_COMMANDS, 'help', 'version', '-V'];
  // Near misses of words only: `--` starts a notify chain, `--name=value` is a notify option.
  return words.includes(first) || (/^[a-z][a-z-]*$/i.test(first) && isNearCommand(first, words.filter((w) => !w.startsWith('-'))));
}

/** `agent-checkpoint-tmux install|uninstall|doctor|help|version` on commander; resolves to the exit code. */
export async function runTmuxCli(argv: readonly string[]): Promise<number> {
  const write = (text: string) => new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));
  const cli: CliProgram = createCliProgram('agent-checkpoint-tmux', TMUX_VERSION, {
    env: process.env,
    write,
    writeError: (text) => void process.stderr.write(text),
    stdoutIsTTY: process.stdout.isTTY,
    stderrIsTTY: process.stderr.isTTY,
  });
  const program = cli.program.description('Codex notify program: delivers the agent-checkpoint message to the Codex TUI session.');
  program.helpInformation = () => `${USAGE}\n`;
  const setup = (name: string) => async () => {
    const { runSetupCommand } = await import('./run-setup-command.ts');
    cli.setExitCode(await runSetupCommand(name, cli.currentArgs().slice(1)));
  };
  delegatedCommand(program, 'install', "set Codex's notify to this program").option('--dry-run', 'show the diff, write nothing').option('--print', 'print the notify line to add by hand').action(setup('install'));
  delegatedCommand(program, 'uninstall', 'restore the notify program you had').option('--dry-run', 'show the diff, write nothing').action(setup('uninstall'));
  delegatedCommand(program, 'doctor', 'check notify, tmux and Codex, with a fix per finding')
    .option('--tmux-socket <path>', 'the tmux server to look at')
    .option('--json', 'machine-readable findings')
    .action(setup('doctor'));
  program
    .command('version')
    .description('print the version')
    .action(async () => write(`${TMUX_VERSION}\n`));
  addHelpCommand(cli);
  return cli.run(argv);
}
