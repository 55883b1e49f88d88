import { addHelpCommand, createCliProgram, isNearCommand, type CliProgram } from '@agent-checkpoint/setup-kit/cli-program';
import { NOTIFY_DOCTOR_HELP } from '../doctor/run-notify-doctor-command.ts';
import { NOTIFY_INSTALL_HELP } from '../install/run-notify-install-command.ts';
import type { SetupRequest } from './run-setup-command.ts';

/** The version `--version` of the notify parser prints too. */
export const TMUX_VERSION = '0.1.0';

const SETUP_COMMANDS = ['install', 'uninstall', 'doctor'];
/** Top-level flags of this program; alone they are a question for it (Codex always passes a payload last). */
const PROGRAM_FLAGS = ['-h', '--help', '-v', '--version', '-V'];

/** What the program help adds after its commands: the notify form Codex runs (parse-notify-argv.ts, without this parser). */
const NOTIFY_HELP = `
As Codex's notify program (what install writes; Codex appends the JSON payload, always exits 0):
  agent-checkpoint-tmux [--transport=auto|queue|tmux] [--codex-bin=PATH] [--queue-confirm-ms=N]
                        [--enter-delay-ms=N] [--idle-wait-ms=N] [--confirm-timeout-ms=N] [-- <previous notify program> [args…]] <payload>
It delivers the agent-checkpoint message to the Codex TUI session: by \`codex queue\` when Codex has
it, else by typing into the tmux pane proven to run that session.

~/.codex/config.toml:
  notify = ["node", "/abs/path/agent-checkpoint-tmux.mjs"]
  notify = ["node", "/abs/path/agent-checkpoint-tmux.mjs", "--", "notify-send", "Codex"]   # chaining

Environment: AGENT_CHECKPOINT_DISABLE=1 (off), AGENT_CHECKPOINT_DEBUG=1 (log to <state dir>/debug.log).
Exit status of the commands: 0 done, 1 failure, 2 usage error.`;

/**
 * Whether the arguments are for the set-up parser rather than a notify run: a set-up command,
 * `help`/`version`, a top-level flag alone (`--help`, `-v`, `--version`, `-V`), or a near miss of a
 * command (`instal`: exit 2 with "did you mean"). Codex always passes its JSON payload last, and
 * options as `--name=value`, so a notify run never looks like one of these.
 */
export function isSetupInvocation(argv: readonly string[]): boolean {
  const first = argv[0];
  if (first === undefined) return false;
  if (argv.length === 1 && PROGRAM_FLAGS.includes(first)) return true;
  const words = [...SETUP_COMMANDS, 'help', 'version'];
  // Near misses of words only: `--` starts a notify chain, `--name=value` is a notify option.
  return words.includes(first) || (/^[a-z][a-z-]*$/i.test(first) && isNearCommand(first, words));
}

/**
 * The program with every set-up command declared: their options and help come from these
 * declarations only (exported for the help test, which walks them). Each command's implementation is
 * imported only when it runs.
 */
export function createTmuxProgram(write: (text: string) => Promise<void>): CliProgram {
  const cli: CliProgram = createCliProgram('agent-checkpoint-tmux', TMUX_VERSION, {
    env: process.env,
    write,
    writeError: (text) => void process.stderr.write(text),
    stdoutIsTTY: process.stdout.isTTY,
    stderrIsTTY: process.stderr.isTTY,
  });
  const program = cli.program
    .description('Codex notify program: delivers the agent-checkpoint message to the Codex TUI session; and its set-up.')
    // A usage error is one line (and commander's "did you mean" when there is one), not the help again.
    .showHelpAfterError(false)
    .addHelpText('after', NOTIFY_HELP);
  const run = async (request: SetupRequest) => cli.setExitCode(await (await import('./run-setup-command.ts')).runSetupCommand(request));
  program
    .command('install')
    .description("set Codex's notify to this program, chaining the one you had")
    .option('--dry-run', 'show the diff, write nothing')
    .option('--print', 'print the notify line to add by hand, write nothing')
    .addHelpText('after', NOTIFY_INSTALL_HELP)
    .action(async (options: { dryRun?: boolean; print?: boolean }) => run({ command: 'install', options }));
  program
    .command('uninstall')
    .description('restore the notify program you had')
    .option('--dry-run', 'show the diff, write nothing')
    .addHelpText('after', NOTIFY_INSTALL_HELP)
    .action(async (options: { dryRun?: boolean }) => run({ command: 'uninstall', options }));
  program
    .command('doctor')
    .description('check notify, tmux and Codex, with a fix per finding')
    .option('--tmux-socket <path>', 'the tmux server to look at (default: the one in $TMUX, else the default server)')
    .option('--json', 'machine-readable findings')
    .addHelpText('after', NOTIFY_DOCTOR_HELP)
    .action(async (options: { tmuxSocket?: string; json?: boolean }) => run({ command: 'doctor', options }));
  program
    .command('version')
    .description('print the version')
    .action(async () => write(`${TMUX_VERSION}\n`));
  addHelpCommand(cli);
  return cli;
}

/** `agent-checkpoint-tmux install|uninstall|doctor|help|version` (and `--help`, `-v`); resolves to the exit code. */
export async function runTmuxCli(argv: readonly string[]): Promise<number> {
  const write = (text: string) => new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));
  return createTmuxProgram(write).run(argv);
}
