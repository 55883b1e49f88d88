import { Argument, CommanderError, Option, type Command } from 'commander';
import { addHelpCommand, createCliProgram, isNearCommand, type CliProgram } from '@agent-checkpoint/setup-kit/cli-program';
import { COMMAND_HELP } from './command-help.ts';
import { HOOK_MODE_TABLE, TURN_END_AGENTS, TURN_END_AGENTS_TEXT, hookModeHelpLines } from '../hook-modes.ts';
// The grammar of the slash text: a few constants and pure functions, no imports.
import { SLASH_COMMANDS, slashCommandArgv, type SlashCommand } from '../context-cli/slash-arguments.ts';
import type { SetupCommandName, SetupRunner } from './run-setup-command.ts';
import type { InstallOptions, UninstallOptions } from '../install/install-options.ts';
import type { DoctorOptions } from '../doctor/run-doctor-command.ts';
import type { InitOptions } from '../config-cli/run-init-command.ts';
import type { ConfigOptions } from '../config-cli/run-config-command.ts';
import type { PresetsOptions } from '../config-cli/run-presets-command.ts';
import type { ExplainOptions } from '../explain/run-explain-command.ts';
import type { TrustOptions } from '../trust/run-trust-command.ts';
import type { ResumePromptOptions } from '../resume-prompt/run-resume-prompt.ts';
import { LOOP_OPERATIONS, type LoopOperation, type LoopOptions } from '../loop-cli/loop-options.ts';
import { STATE_OPERATIONS, type StateOperation, type StateOptions } from '../state-cli/state-options.ts';

declare const __AGENT_CHECKPOINT_VERSION__: string | undefined;

/** This build's version (`dev` when run from source). */
export const HOOK_VERSION = typeof __AGENT_CHECKPOINT_VERSION__ === 'string' ? __AGENT_CHECKPOINT_VERSION__ : 'dev';

const AGENTS = TURN_END_AGENTS;
const SCOPES = ['user', 'project'] as const;

/** The modes agents run (hook-modes.ts; listed for `--help` only, see {@link isCliInvocation}). */
const HOOK_MODE_NAMES: ReadonlySet<string> = new Set(HOOK_MODE_TABLE.map((entry) => entry.name));

const ENVIRONMENT_HELP = `
Hook modes (registered by install, run by the agents; they always exit 0):
${hookModeHelpLines('agent-checkpoint-hook').join('\n')}

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
  const words = ['-h', '--help', '-v', '-V', '--version'];
  for (const command of createHookProgram(async () => undefined).program.commands) words.push(command.name(), ...command.aliases());
  if (words.includes(first)) return true;
  // Not near a hook mode: a mistyped agent in a hook entry (`claudee`) must still pass with exit 0.
  return isNearCommand(first, words.filter((word) => !HOOK_MODE_NAMES.has(word)));
}

/** The program with every command declared (exported for the help test, which walks its tree). */
export function createHookProgram(write: (text: string) => Promise<void>): CliProgram {
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
  // Each action gets the options commander parsed (the declarations below are the only parser; the
  // help lists exactly them, plus the text of command-help.ts).
  const setup = <O extends { cwd?: string }>(name: SetupCommandName, run: SetupRunner<O>) => async (options: O) =>
    cli.setExitCode(await (await import('./run-setup-command.ts')).runSetupCommand(name, options.cwd, write, (context) => run(options, context)));
  const agentOption = (description: string, choices: readonly string[]) => new Option('-a, --agent <agent>', description).choices(choices);

  // ── switches ──
  for (const name of ['off', 'on'] as const) {
    program
      .command(name)
      .description(name === 'off' ? 'turn checkpoints off (a session, this session, this project, or everywhere)' : 'turn checkpoints back on')
      .option('--session <id>', "one session (the agent's session id)")
      .option('--current', 'the newest session of any agent (or --agent) in this directory')
      .option('--project', 'every session in this project (the repository of --cwd); nothing is written into it')
      .option('--all', 'every session everywhere')
      .addOption(agentOption('with --current: only this agent', AGENTS))
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
  program
    .command('install')
    .description("register the hooks in the agents' settings (Claude Code: and its status line, unless it has one)")
    .addOption(agentOption('the agent, or all (the agents found on this machine)', [...AGENTS, 'all']).makeOptionMandatory())
    .addOption(new Option('--scope <scope>', 'user: every project of yours; project: the repository of --cwd').choices(SCOPES).default('user'))
    .option('--cwd <dir>', 'the project for --scope project (default: the current directory)')
    .option('--with-context', 'also the context hooks (SessionStart, PreCompact, the monitor after each tool call, the prompt estimate)')
    .option('--no-status-line', 'Claude Code: do not add the status line')
    .option('--dry-run', 'show the diff, write nothing')
    .option('--print', 'print the snippet to add by hand, write nothing')
    .option('--force', 'install even beside an active agent-checkpoint plugin or extension (every hook then runs twice)')
    .addHelpText('after', COMMAND_HELP.install)
    .action(setup('install', async (options: InstallOptions, context) => (await import('../install/run-install-command.ts')).runInstallCommand({ command: 'install', options }, context)));
  program
    .command('uninstall')
    .description('remove the hooks (with --purge: also state, caches and install records)')
    .addOption(agentOption('the agent, or all', [...AGENTS, 'all']).makeOptionMandatory())
    .addOption(new Option('--scope <scope>', 'user: every project of yours; project: the repository of --cwd').choices(SCOPES).default('user'))
    .option('--cwd <dir>', 'the project for --scope project (default: the current directory)')
    .option('--purge', 'also remove the state directory, the code and config caches and the install records')
    .option('--dry-run', 'show what would change, change nothing')
    .addHelpText('after', COMMAND_HELP.uninstall)
    .action(setup('uninstall', async (options: UninstallOptions, context) => (await import('../install/run-install-command.ts')).runInstallCommand({ command: 'uninstall', options }, context)));
  program
    .command('doctor')
    .description('check the set-up, with a fix for each finding')
    .option('--cwd <dir>', 'the project to check (default: the current directory)')
    .option('--json', 'machine-readable findings')
    .addHelpText('after', COMMAND_HELP.doctor)
    .action(
      setup('doctor', async (options: DoctorOptions, context) =>
        // Its checks take seconds (the agents' --version): show which are still running, on a terminal.
        (await import('../doctor/run-doctor-command.ts')).runDoctorCommand(options, {
          ...context,
          ...(process.stderr.isTTY ? { progress: (await import('@agent-checkpoint/setup-kit')).createProgressLine(process.stderr, 'doctor') } : {}),
        }),
      ),
    );
  program
    .command('init')
    .description('write .agent-checkpoint.json for this project (detected presets, $schema, examples)')
    .option('--cwd <dir>', 'any directory of the project (default: the current directory)')
    .option('--force', 'overwrite an existing file (kept as a backup)')
    .option('--print', 'print the file, write nothing')
    .addHelpText('after', COMMAND_HELP.init)
    .action(setup('init', async (options: InitOptions, context) => (await import('../config-cli/run-init-command.ts')).runInitCommand(options, context)));
  program
    .command('config')
    .description('the merged configuration, and where each value came from')
    .option('--cwd <dir>', 'the project (default: the current directory)')
    .option('--json', 'machine-readable result')
    .addHelpText('after', COMMAND_HELP.config)
    .action(setup('config', async (options: ConfigOptions, context) => (await import('../config-cli/run-config-command.ts')).runConfigCommand(options, context)));
  program
    .command('presets')
    .description('the presets: what each checks, what it needs, whether detected here')
    .option('--cwd <dir>', 'the project (default: the current directory)')
    .option('--json', 'machine-readable list')
    .addHelpText('after', COMMAND_HELP.presets)
    .action(setup('presets', async (options: PresetsOptions, context) => (await import('../config-cli/run-presets-command.ts')).runPresetsCommand(options, context)));
  program
    .command('explain')
    .description('why a turn would (or would not) be checkpointed')
    .addOption(agentOption('whose transcript format to read', AGENTS).makeOptionMandatory())
    .option('--transcript <file>', "the transcript file (default: the session's, else the newest for --cwd)")
    .option('--session <id>', "the agent's session id (Claude session_id, Gemini session_id, Codex thread id)")
    .addOption(new Option('--turn-id <id>', 'explain this turn (Codex turn_id) instead of the last').conflicts('promptId'))
    .option('--prompt-id <id>', 'explain this turn (Claude prompt_id) instead of the last')
    .option('--cwd <dir>', "the session's working directory (default: the current directory)")
    .option('--json', 'machine-readable result')
    .addHelpText('after', COMMAND_HELP.explain)
    .action(setup('explain', async (options: ExplainOptions, context) => (await import('../explain/run-explain-command.ts')).runExplainCommand(options, context)));
  program
    .command('trust')
    .description("let a project file's privileged keys apply")
    .argument('[path]', 'the file, or a directory (its repository\'s .agent-checkpoint.json)')
    .addOption(new Option('--revoke', 'stop trusting it').conflicts('list'))
    .option('--list', 'the trusted files, and whether each changed since')
    .option('--json', 'with --list: machine-readable')
    .addHelpText('after', COMMAND_HELP.trust)
    .action(async (path: string | undefined, options: TrustOptions, command: Command) => {
      if (options.list === true && path !== undefined) command.error('error: --list takes no path', { exitCode: 2 });
      if (options.json === true && options.list !== true) command.error('error: --json goes with --list', { exitCode: 2 });
      cli.setExitCode(
        await (await import('./run-setup-command.ts')).runSetupCommand('trust', undefined, write, async (context) => (await import('../trust/run-trust-command.ts')).runTrustCommand(path, options, context)),
      );
    });

  // ── context checkpoints (docs/context-checkpoints.md) ──
  program
    .command('resume-prompt')
    .description('print the PROMPT.md resume section of the newest handoff (loop runners)')
    .option('--cwd <dir>', 'any directory of the repository (default: the current one)')
    .option('--max-age-hours <n>', 'ignore older handoffs (default 24)')
    .option('--peek', 'in a loop: do not mark the handoff consumed')
    .addHelpText('after', COMMAND_HELP['resume-prompt'])
    // Like the hooks it always exits 0 (a loop runner renders its prompt with it): a usage error is
    // reported on stderr by commander, and exits 0 (help and version already do).
    .exitOverride((error) => {
      throw new CommanderError(0, error.code, error.message);
    })
    // … in one line with the bin's prefix, like its other notes (a runner's log, not a terminal).
    .showHelpAfterError(false)
    .configureOutput({ outputError: (text, writeError) => writeError(`agent-checkpoint: resume-prompt: ${text.replace(/^error: /, '')}`) })
    .action(async (options: ResumePromptOptions) => {
      const { runResumePrompt } = await import('../resume-prompt/run-resume-prompt.ts');
      cli.setExitCode(await runResumePrompt(options, write));
    });
  program
    .command('loop')
    .description('loop runners: start | next (exit 10: resume from a handoff) | status | end')
    .addArgument(new Argument('<operation>', 'start: a fresh loop state; next: start the next iteration and estimate the plan’s next item; status: iteration, pending handoff, context history; end: autonomous mode off (the state is kept)').choices(LOOP_OPERATIONS))
    .option('--cwd <dir>', 'any directory of the repository (default: the current one)')
    .option('--json', 'machine-readable result')
    .addHelpText('after', COMMAND_HELP.loop)
    .action(async (operation: LoopOperation, options: LoopOptions) => {
      const { runLoopCommand } = await import('../loop-cli/run-loop-command.ts');
      cli.setExitCode(await runLoopCommand(operation, options, write));
    });
  program
    .command('state')
    .description('the phase state of multi-phase commands (JSON in and out; exit 3: nothing found)')
    .addArgument(new Argument('<operation>').choices(STATE_OPERATIONS))
    .requiredOption('--command <name>', 'the command whose state this is')
    .option('--feature <name>', 'a feature within it')
    .option('--phase <name>', 'update-phase, handoff, respond: the phase')
    .option('--mode <mode>', 'handoff: the sub-agent\'s mode (plan, code, ui, docs, eval, reconcile, research)')
    .option('--truncate', 'respond: shorten a context_summary over the token limit instead of refusing it')
    .option('--json <text>', 'save / update-phase / handoff (the request: task, context) / respond (the response): the JSON (default: stdin)')
    .option('--cwd <dir>', 'any directory of the repository (default: the current one)')
    .option('--state-dir <dir>', 'default <repo>/.agent-checkpoint/state')
    .addHelpText('after', COMMAND_HELP.state)
    .action(async (operation: StateOperation, options: StateOptions, command: Command) => {
      if (options.command === '') command.error("error: option '--command <name>' must not be empty", { exitCode: 2 });
      if ((operation === 'update-phase' || operation === 'handoff' || operation === 'respond') && (options.phase ?? '') === '') command.error(`error: ${operation} needs --phase <name>`, { exitCode: 2 });
      const { runStateCommand } = await import('../state-cli/run-state-command.ts');
      cli.setExitCode(await runStateCommand(operation, options, write));
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
    .option('--agent <id>', `with --defer: the session's agent, ${TURN_END_AGENTS_TEXT} (default: the newest session's)`)
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
    .option('--issue <id>', 'with the tracker on: the parent issue of the shards\' sub-issues (default: the branch\'s issue)')
    .option('--cwd <dir>', 'the project (default: the current directory)')
    .option('--json', 'machine-readable result')
    .action(async (plan: string, options) => cli.setExitCode(await (await import('../context-cli/run-shard-command.ts')).runShardCommand(plan, options, write)));
  program
    .command('slash')
    .description("run checkpoint, estimate, shard, report, off, on, status or doctor with a slash command's argument text, split here without a shell (docs/context-checkpoints.md, \"Commands\")")
    .addArgument(new Argument('<command>', 'checkpoint, estimate, shard, report, off, on (both: this session, unless the text names another scope), status or doctor').choices(SLASH_COMMANDS))
    .argument('[text...]', "the argument text as the agent delivers it (one word; more are joined with a space); estimate: the task, as is")
    // Everything after <command> is the text, options included (`/checkpoint --status`): its own
    // grammar splits it (context-cli/slash-arguments.ts), then the command runs as if typed.
    .passThroughOptions()
    .action(async (name: SlashCommand, text: string[], _options: unknown, command: Command) => {
      // A bare -h/--help word still asks for this help, as it would anywhere else.
      if (text.includes('--help') || text.includes('-h')) command.help();
      await cli.reparse(slashCommandArgv(name, text.join(' ')));
    });
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
  for (const entry of HOOK_MODE_TABLE) {
    const command = cli.program.command(entry.name, { hidden: true }).description(`${entry.summary} (always exits 0)`);
    if (entry.takesAgent) command.addArgument(new Argument('<agent>', AGENTS.join(', ')));
    if (entry.usage.includes('--debug')) command.option('--debug', 'log decisions to stderr and <state dir>/debug.log');
    if (entry.kind === 'turn-end-long') command.addHelpText('after', '\nShort form: agent-checkpoint-hook <agent>. Installed by `agent-checkpoint-hook install`.');
    command.action(unreachable);
  }
}
