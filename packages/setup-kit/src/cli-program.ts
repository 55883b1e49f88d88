import { Command, CommanderError, Option } from 'commander';
import { colorEnabled, terminalStyle } from './terminal-style.ts';
import { EXIT_OK, EXIT_USAGE } from './exit-codes.ts';

/** Where a program's text goes (the bins pass their guarded stdout and stderr). */
export interface ProgramIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** stdout: help, version, results. */
  readonly write: (text: string) => Promise<void>;
  /** stderr: usage errors, diagnostics. */
  readonly writeError: (text: string) => void;
  readonly stdoutIsTTY: boolean | undefined;
  readonly stderrIsTTY: boolean | undefined;
}

/** A program under construction, and how to run it once its commands are added. */
export interface CliProgram {
  readonly program: Command;
  /** Parse `argv` (the arguments after the bin) and run the chosen command; resolves to the exit code. */
  run(argv: readonly string[]): Promise<number>;
  /** Record the exit code of the command that ran (actions cannot return one to commander). */
  setExitCode(code: number): void;
  /** The arguments being parsed (for commands that hand their own on: `argv.slice(1)`). */
  currentArgs(): readonly string[];
  /** Parse again within a run (`help install` → `install --help`). */
  reparse(argv: readonly string[]): Promise<void>;
}

/**
 * A `commander` program with the conventions of both bins: help and version on stdout with exit 0;
 * usage errors (unknown command or option, missing argument) on stderr with a "did you mean"
 * suggestion, a pointer to `--help`, and exit 2; `--version`/`-v` (and `-V`, commander's default); colour only when the stream is a
 * terminal and `NO_COLOR` is unset (`FORCE_COLOR` forces it); never `process.exit` from inside
 * commander (`exitOverride`), so the caller flushes its output first.
 *
 * Settings are inherited by commands added afterwards with `program.command(…)`. Options after a
 * subcommand belong to it (`enablePositionalOptions`): `install -V` is an error, not the version.
 */
export function createCliProgram(name: string, version: string, io: ProgramIo): CliProgram {
  let stdout = '';
  let exitCode = EXIT_OK;
  let current: readonly string[] = [];
  const outColor = colorEnabled(io.env, io.stdoutIsTTY);
  const errColor = colorEnabled(io.env, io.stderrIsTTY);
  const outStyle = terminalStyle(outColor);
  const errStyle = terminalStyle(errColor);
  const program = new Command(name)
    .version(version, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .enablePositionalOptions()
    .exitOverride()
    .showSuggestionAfterError(true)
    .showHelpAfterError(true)
    .configureOutput({
      // Buffered: the caller's stdout is asynchronous (a pipe the agent or a script reads).
      writeOut: (text) => {
        stdout += text;
      },
      writeErr: (text) => io.writeError(text),
      outputError: (text, write) => write(errStyle.red(text)),
      getOutHasColors: () => outColor,
      getErrHasColors: () => errColor,
    })
    .configureHelp({
      styleTitle: (text) => outStyle.bold(text),
      styleCommandText: (text) => outStyle.cyan(text),
      styleSubcommandText: (text) => outStyle.cyan(text),
      styleOptionText: (text) => outStyle.green(text),
      showGlobalOptions: false,
    });
  // `-V` too (commander's own default, and what the bins answered before `-v`): hidden, same answer.
  program.addOption(new Option('-V').hideHelp());
  program.on('option:V', () => {
    stdout += `${version}\n`;
    throw new CommanderError(0, 'commander.version', version);
  });
  return {
    program,
    setExitCode: (code) => {
      exitCode = code;
    },
    currentArgs: () => current,
    reparse: async (argv) => {
      current = argv;
      await program.parseAsync([...argv], { from: 'user' });
    },
    run: async (argv) => {
      let code: number;
      current = argv;
      try {
        await program.parseAsync([...argv], { from: 'user' });
        code = exitCode;
      } catch (error) {
        if (!(error instanceof CommanderError)) throw error;
        // Help and version exit 0; every other commander error is a usage error.
        code = error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
      }
      if (stdout !== '') await io.write(stdout);
      return code;
    },
  };
}

/** A `help [command]` command: `help install` runs `install --help`, so both show the same text. */
export function addHelpCommand(cli: CliProgram): void {
  cli.program
    .command('help [command]')
    .description('show help for a command')
    .action(async (name: string | undefined) => {
      const command = name === undefined ? undefined : cli.program.commands.find((c) => c.name() === name || c.aliases().includes(name));
      if (name !== undefined && command === undefined) {
        cli.program.error(`unknown command '${name}'`, { exitCode: EXIT_USAGE, code: 'commander.unknownCommand' });
      }
      if (command === undefined) cli.program.help();
      else await cli.reparse([command.name(), '--help']);
    });
}

/**
 * Whether `word` is close to one of `candidates`, by the rule commander uses for its "did you mean"
 * (Damerau–Levenshtein distance at most 3 and similarity above 0.4). A bin whose first argument may
 * also be something else (the hook's agent name, Codex's notify payload) uses it to tell a mistyped
 * command (a usage error) from an argument meant for the other mode.
 */
export function isNearCommand(word: string, candidates: readonly string[]): boolean {
  return candidates.some((candidate) => {
    const distance = editDistance(word, candidate);
    const length = Math.max(word.length, candidate.length);
    return distance <= 3 && length > 0 && (length - distance) / length > 0.4;
  });
}

/** Optimal string alignment distance (adjacent transpositions count as one edit). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Math.max(a.length, b.length);
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
