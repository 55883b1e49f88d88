import { Argument, Option, type Command } from 'commander';
import { addHelpCommand, createCliProgram, delegatedCommand, isNearCommand, type CliProgram } from '@agent-checkpoint/setup-kit/cli-program';

declare const __AGENT_CHECKPOINT_VERSION__: string | undefined;

/** This build's version (`dev` when run from source). */
export const HOOK_VERSION = typeof __AGENT_CHECKPOINT_VERSION__ === 'string' ? __AGENT_CHECKPOINT_VERSION__ : 'dev';

const AGENTS = ['claude', 'gemini', 'codex'] as const;

/** The modes agents run (listed for `--help` only; see {@link isCliInvocation}). */
const HOOK_MODE_NAMES: ReadonlySet<string> = new Set([...AGENTS, 'hook', 'session-start', 'pre-compact', 'prompt-submit', 'statusline']);

const ENVIRONMENT_HELP = `
Hook modes (registered by install, run by the agents; they always exit 0):
  agent-checkpoint-hook <claude|gemini|codex> [--debug]   turn-end hook: reads the payload on stdin
  agent-checkpoint-hook hook <agent> [--debug]             the same, long form
  agent-checkpoint-hook session-start <agent>              SessionStart hook: inject the latest handoff once
  agent-checkpoint-hook pre-compact <agent>                PreCompact/PreCompress hook: write a handoff
  agent-checkpoint-hook prompt-submit <agent>              UserPromptSubmit/BeforeAgent hook: task estimate warning
  agent-checkpoint-hook statusline                         Claude Code status line: [CTX: … L2] [CKPT: …]

Environment:
  AGENT_CHECKPOINT_DISABLE=1            checkpoints off everywhere
  AGENT_CHECKPOINT_DEBUG=1              log decisions to stderr and <state dir>/debug.log
  AGENT_CHECKPOINT_STATE_DIR=<dir>      state directory (default $XDG_STATE_HOME/agent-checkpoint)
  AGENT_CHECKPOINT_HOOK_DEADLINE_MS=<n> overall hook deadline (default 8000)
  NO_COLOR=1 / FORCE_COLOR=1            colour off / on (default: on for a terminal)

Exit status of the commands: 0 done, 1 failure, 2 usage error. The hook modes always exit 0.
Docs: docs/quick-start.md, docs/configuration.md, docs/context-checkpoints.md.`;

/**
 * `agent-checkpoint-hook` for people and scripts: every command except the hook modes run by agents
 * (`cli.ts` sends those straight to their runner, and sends them here only for `--help`). Each
 * command's implementation is imported only when it runs. Resolves to the exit code.
 */
export async function runHookCli(argv: readonly string[], write: (text: string) => Promise<void>): Promise<number> {
  // `slash <command> <text>`: the text is split by its own grammar (context-cli/slash-arguments.ts),
  // before the parser, which would read a `--status` inside it as an option of `slash`.
  const [first, command, ...text] = argv;
  if (first === 'slash' && command !== undefined && !text.includes('--help') && !text.includes('-h')) {
    const { isSlashCommand, slashCommandArgv } = await import('../context-cli/slash-arguments.ts');
    if (isSlashCommand(command)) return createHookProgram(write).run(slashCommandArgv(command, text.join(' ')));
  }
  return createHookProgram(write).run(argv);
}

/**
 * Whether arguments that are not a hook mode are meant for the command parser: a command or a
 * top-level option, something close enough to one to be a typo of it (`instal`: exit 2 with "did you
 * mean"), or nothing at all from a terminal. Anything else (`cursor`, a misconfigured hook entry, no
 * arguments from an agent) is a hook run with an unknown agent, which lets the stop pass with exit 0:
 * Claude Code reads exit 2 from a Stop hook as "block, and show stderr to the model".
 */
export function isCliInvocation(argv: readonly string[], stdinIsTTY: boolean | undefined): boolean {
  const first = argv[0];
  if (first === undefined) return stdinIsTTY === true;
  const words = ['-h', '--help', '-V', '--version'];
  for (const command of createHookProgram(async () => undefined).program.commands) words.push(command.name(), ...command.aliases());
  if (words.includes(first)) return true;
  // Not near a hook mode: a mistyped agent in a hook entry (`claudee`) must still pass with exit 0.
  return isNearCommand(first, words.filter((word) => !HOOK_MODE_NAMES.has(word)));
}

function createHookProgram(write: (text: string) => Promise<void>): CliProgram {
  const cli = createCliProgram('agent-checkpoint-hook', HOOK_VERSION, {
    env: process.env,
    write,
    writeError: (text) => void process.stderr.write(text),
    stdoutIsTTY: process.stdout.isTTY,
    stderrIsTTY: process.stderr.isTTY,
  });
  const program = cli.program
    .description('A checkpoint at the end of every agent turn: missing follow-up actions, found deterministically.')
    .addHelpText('after', ENVIRONMENT_HELP);
  // The arguments after the command name, as given (`help install` re-parses `install --help`).
  const rest = (): string[] => cli.currentArgs().slice(1);
  const setup = (name: string) => async () => cli.setExitCode(await (await import('./run-setup-command.ts')).runSetupCommand(name, rest(), write));

  // ── switches ──
  for (const name of ['off', 'on'] as const) {
    program
      .command(name)
      .description(name === 'off' ? 'turn checkpoints off (a session, this session, this project, or everywhere)' : 'turn checkpoints back on')
      .option('--session <id>', "one session (the agent's session id)")
      .option('--current', 'the newest session of any agent (or --agent) in this directory')
      .option('--project', 'every session in this project (the repository of --cwd); nothing is written into it')
      .option('--all', 'every session everywhere')
      .addOption(new Option('-a, --agent <agent>', 'with --current: only this agent').choices(AGENTS))
      .option('--cwd <dir>', 'the directory for --current and --project (default: the current one)')
      .option('--json', 'machine-readable result')
      .action(async (options, command: Command) => cli.setExitCode(await (await import('./switch-commands.ts')).runSwitchCommand(name, options, write, () => command.helpInformation())));
  }
  program
    .command('status')
    .description('show the off switches (environment, everywhere, project, session) and loop-guard state')
    .option('--session <id>', "also this session's switch and delivered checkpoints")
    .option('--cwd <dir>', "the project whose switch is shown (default: the current directory)")
    .option('--json', 'machine-readable result')
    .action(async (options) => cli.setExitCode(await (await import('./switch-commands.ts')).runStatusCommand(options, write)));

  // ── set-up ──
  delegatedCommand(program, 'install', 'register the hooks in the agents\' settings')
    .addOption(new Option('-a, --agent <agent>', 'claude, gemini, codex or all'))
    .option('--scope <scope>', 'user (default) or project')
    .option('--cwd <dir>', 'the project for --scope project')
    .option('--with-context', 'also the context hooks (SessionStart, PreCompact, the monitor after each tool call, the prompt estimate)')
    .option('--dry-run', 'show the diff, write nothing')
    .option('--print', 'print the snippet to add by hand')
    .option('--force', 'install even beside an active agent-checkpoint plugin or extension (every hook then runs twice)')
    .action(setup('install'));
  delegatedCommand(program, 'uninstall', 'remove the hooks (with --purge: also state, caches and install records)')
    .addOption(new Option('-a, --agent <agent>', 'claude, gemini, codex or all'))
    .option('--scope <scope>', 'user (default) or project')
    .option('--cwd <dir>', 'the project for --scope project')
    .option('--purge', 'also remove the state directory, the code and config caches and the install records')
    .option('--dry-run', 'show what would change, change nothing')
    .action(setup('uninstall'));
  delegatedCommand(program, 'doctor', 'check the set-up, with a fix for each finding')
    .option('--cwd <dir>', 'the project to check')
    .option('--json', 'machine-readable findings')
    .action(setup('doctor'));
  delegatedCommand(program, 'init', 'write .agent-checkpoint.json for this project (detected presets, $schema, examples)')
    .option('--cwd <dir>', 'any directory of the project')
    .option('--force', 'overwrite an existing file (kept as a backup)')
    .option('--print', 'print the file, write nothing')
    .action(setup('init'));
  delegatedCommand(program, 'config', 'the merged configuration, and where each value came from')
    .option('--cwd <dir>', 'the project (default: the current directory)')
    .option('--json', 'machine-readable result')
    .action(setup('config'));
  delegatedCommand(program, 'presets', 'the presets: what each checks, what it needs, whether detected here')
    .option('--cwd <dir>', 'the project (default: the current directory)')
    .option('--json', 'machine-readable result')
    .action(setup('presets'));
  delegatedCommand(program, 'explain', 'why a turn would (or would not) be checkpointed')
    .addOption(new Option('-a, --agent <agent>', 'whose transcript format to read'))
    .option('--transcript <file>', 'the transcript file')
    .option('--session <id>', "the agent's session id")
    .option('--turn-id <id>', 'explain this turn')
    .option('--prompt-id <id>', 'explain this turn (Claude prompt_id)')
    .option('--cwd <dir>', "the session's working directory")
    .option('--json', 'machine-readable result')
    .action(setup('explain'));
  delegatedCommand(program, 'trust [path]', "let a project file's privileged keys apply")
    .option('--revoke', 'stop trusting it')
    .option('--list', 'the trusted files')
    .option('--json', 'with --list: machine-readable')
    .action(setup('trust'));

  // ── context checkpoints (docs/context-checkpoints.md) ──
  program
    .command('resume-prompt')
    .description('print the PROMPT.md resume section of the newest handoff (loop runners)')
    // Like the hooks it always exits 0 (a loop runner renders its prompt with it): its options are
    // parsed by its own parser, which reports bad arguments on stderr; they are listed here for help.
    .addHelpText('after', '\nOptions of the command:\n  --cwd <dir>           any directory of the repository\n  --max-age-hours <n>   ignore older handoffs (default 24)\n  --peek                in a loop: do not mark the handoff consumed\n\nAlways exits 0: the section on stdout, or nothing.')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async () => {
      const { runResumePrompt } = await import('../resume-prompt/run-resume-prompt.ts');
      cli.setExitCode(await runResumePrompt(rest(), write));
    });
  program
    .command('loop')
    .description('loop runners: start | next (exit 10: resume from a handoff) | status')
    .addArgument(new Argument('<operation>').choices(['start', 'next', 'status']))
    .option('--cwd <dir>', 'any directory of the repository')
    .option('--json', 'machine-readable result')
    .addHelpText('after', '\nExit codes: 0 ok, 1 failed, 2 usage, 3 (status) no loop here,\n  10 (next) the previous iteration ended with a handoff: prepend `resume-prompt` to the next prompt.')
    .action(async () => {
      const { runLoopCommand } = await import('../loop-cli/run-loop-command.ts');
      cli.setExitCode(await runLoopCommand(rest(), write));
    });
  program
    .command('state')
    .description('the phase state of multi-phase commands (JSON in and out; exit 3: nothing found)')
    .addArgument(new Argument('<operation>').choices(['load', 'save', 'update-phase', 'complete', 'resume']))
    .requiredOption('--command <name>', 'the command whose state this is')
    .option('--feature <name>', 'a feature within it')
    .option('--phase <name>', 'update-phase: the phase')
    .option('--json <text>', 'save / update-phase: the JSON (default: stdin)')
    .option('--cwd <dir>', 'any directory of the repository')
    .option('--state-dir <dir>', 'default <repo>/.agent-checkpoint/state')
    .action(async () => {
      const { runStateCommand } = await import('../state-cli/run-state-command.ts');
      cli.setExitCode(await runStateCommand(rest(), write));
    });

  addContextCommands(cli, write);

  addHookModes(cli);
  program
    .command('version')
    .description('print the version')
    .action(async () => write(`${HOOK_VERSION}\n`));
  addHelpCommand(cli);
  return cli;
}

/**
 * The context checkpoint commands (seed 004: `checkpoint`, `estimate`, `shard`, `report`), each in
 * its own file under context-cli/, imported only when it runs.
 */
function addContextCommands(cli: CliProgram, write: (text: string) => Promise<void>): void {
  const program = cli.program;
  program
    .command('checkpoint')
    .description('write a handoff now (user-initiated); with --status: context %, trend, next level, recommendation')
    .option('--status', 'show the context of the newest session here, write nothing')
    .option('--reason <text>', 'why (shown in the handoff)')
    .option('--defer', 'defer the L1/L2 checkpoint "for one more task": the monitor and the turn end stay quiet until the next turn end (never L3)')
    .option('--level <level>', 'with --defer: the level deferred, L1 or L2 (default L2)')
    .option('--session <id>', 'with --defer: the session (default: the newest session here)')
    .option('--agent <id>', "with --defer: the session's agent, claude, gemini or codex (default: the newest session's)")
    .option('--cwd <dir>', 'the project (default: the current directory)')
    .option('--json', 'machine-readable result')
    .action(async (options) => cli.setExitCode(await (await import('../context-cli/run-checkpoint-command.ts')).runCheckpointCommand(options, write)));
  program
    .command('estimate')
    .description("estimate a task's context cost (prompt, plan open items, this project's history)")
    .argument('<task>', 'the task, as you would prompt it')
    .option('--plan <file>', 'the plan file (default handoff.planFile)')
    .option('--cwd <dir>', 'the project (default: the current directory)')
    .option('--json', 'machine-readable result')
    .action(async (task: string, options) => cli.setExitCode(await (await import('../context-cli/run-estimate-command.ts')).runEstimateCommand(task, options, write)));
  program
    .command('shard')
    .description("split a plan's open items into shards (< 30 % of the window each) and write them as files")
    .argument('<plan>', 'the plan file (inside the project)')
    .option('--dry-run', 'show the shards, write nothing')
    .option('--dir <dir>', 'parent directory of shard directories (default .agent-checkpoint/shards)')
    .option('--cwd <dir>', 'the project (default: the current directory)')
    .option('--json', 'machine-readable result')
    .action(async (plan: string, options) => cli.setExitCode(await (await import('../context-cli/run-shard-command.ts')).runShardCommand(plan, options, write)));
  program
    .command('slash')
    .description("run checkpoint, estimate, shard, report, off, on, status or doctor with a slash command's argument text, split here without a shell (docs/context-checkpoints.md, \"Commands\")")
    .addArgument(new Argument('<command>', 'checkpoint, estimate, shard, report, off (default --current), on (default --current), status or doctor').choices(['checkpoint', 'estimate', 'shard', 'report', 'off', 'on', 'status', 'doctor']))
    .argument('[text...]', "the argument text as the agent delivers it (one word; more are joined with a space); estimate: the task, as is")
    // Reached only for an unknown command name (runHookCli dispatches the rest before parsing).
    .action(() => cli.setExitCode(2));
  program
    .command('report')
    .description('block outcomes (acted on, disputed, ignored, switched off; precision per category and rule) and context checkpoint metrics')
    .addHelpText(
      'after',
      '\nBlock outcomes: for each block, what the stop after it showed: acted on (a required action done),\n  disputed (the agent stopped again without doing any, or ran the escape hatch), ignored (the user moved\n  on to another turn first), switched off (off --session/--current/--project/--all, or the environment),\n  unknown (the response could not be read). Precision: acted on, out of the blocks with a known outcome.',
    )
    .option('--cwd <dir>', 'the project (default: the current directory)')
    .option('--json', 'machine-readable result')
    .action(async (options) => cli.setExitCode(await (await import('../context-cli/run-report-command.ts')).runReportCommand(options, write)));
}

/**
 * The modes agents run, listed for `--help` only: `cli.ts` runs them without this parser (which must
 * never read their stdin or change their exit code), and routes them here only when asked for help.
 */
function addHookModes(cli: CliProgram): void {
  const unreachable = () => cli.program.error('hook modes run without the command parser', { exitCode: 2 });
  for (const agent of AGENTS) {
    cli.program
      .command(agent, { hidden: true })
      .description(`the turn-end hook of ${agent}: reads the payload on stdin, always exits 0`)
      .option('--debug', 'log decisions to stderr and <state dir>/debug.log')
      .action(unreachable);
  }
  cli.program
    .command('hook', { hidden: true })
    .description('the turn-end hook (reads the agent\'s payload on stdin; always exits 0)')
    .addArgument(new Argument('<agent>', 'claude, gemini or codex'))
    .option('--debug', 'log decisions to stderr and <state dir>/debug.log')
    .addHelpText('after', '\nShort form: agent-checkpoint-hook <agent>. Installed by `agent-checkpoint-hook install`.')
    .action(unreachable);
  cli.program
    .command('session-start', { hidden: true })
    .description('SessionStart hook: inject the latest handoff once (always exits 0)')
    .argument('<agent>', 'claude, gemini or codex')
    .action(unreachable);
  cli.program
    .command('pre-compact', { hidden: true })
    .description('PreCompact / PreCompress hook: write a handoff (always exits 0)')
    .argument('<agent>', 'claude, gemini or codex')
    .action(unreachable);
  cli.program
    .command('prompt-submit', { hidden: true })
    .description('UserPromptSubmit / BeforeAgent hook: warn when the task will not fit the context (always exits 0)')
    .argument('<agent>', 'claude, gemini or codex')
    .action(unreachable);
  cli.program
    .command('statusline', { hidden: true })
    .description('Claude Code status line: [CTX: … L2] [CKPT: …] (reads its JSON on stdin)')
    .action(unreachable);
}
