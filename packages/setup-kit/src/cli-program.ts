import { Command, CommanderError } from 'commander';
import { colorEnabled, terminalStyle } from './terminal-style.ts';
import { EXIT_OK, EXIT_USAGE } from './command-args.ts';

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
}

/**
 * A `commander` program with the conventions of both bins: help and version on stdout with exit 0;
 * usage errors (unknown command or option, missing argument) on stderr with a "did you mean"
 * suggestion, a pointer to `--help`, and exit 2; `--version`/`-V`; colour only when the stream is a
 * terminal and `NO_COLOR` is unset (`FORCE_COLOR` forces it); never `process.exit` from inside
 * commander (`exitOverride`), so the caller flushes its output first.
 *
 * Settings are inherited by commands added afterwards with `program.command(…)`. Options after a
 * subcommand belong to it (`enablePositionalOptions`): `install -V` is an error, not the version.
 */
export function createCliProgram(name: string, version: string, io: ProgramIo): CliProgram {
  let stdout = '';
  let exitCode = EXIT_OK;
  const outColor = colorEnabled(io.env, io.stdoutIsTTY);
  const errColor = colorEnabled(io.env, io.stderrIsTTY);
  const outStyle = terminalStyle(outColor);
  const errStyle = terminalStyle(errColor);
  const program = new Command(name)
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .enablePositionalOptions()
    .exitOverride()
    .showSuggestionAfterError(true)
    .showHelpAfterError(`(${name} <command> --help for usage)`)
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
  return {
    program,
    setExitCode: (code) => {
      exitCode = code;
    },
    run: async (argv) => {
      let code: number;
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

/**
 * A `help [command]` command: `help install` runs `install --help`, so commands that print their own
 * detailed help (see {@link delegatedCommand}) show the same text either way.
 */
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
      else await cli.program.parseAsync([command.name(), '--help'], { from: 'user' });
    });
}

/**
 * A command whose implementation parses its own arguments and prints its own detailed help (the
 * older `run…Command(args, context)` modules): commander still checks the declared options (unknown
 * ones, with suggestions, exit 2) and lists the command in the program's help; `-h`/`--help` and the
 * raw arguments reach the implementation unchanged.
 */
export function delegatedCommand(parent: Command, nameAndArgs: string, description: string): Command {
  return parent.command(nameAndArgs).description(description).helpOption(false).option('-h, --help', 'show help');
}
