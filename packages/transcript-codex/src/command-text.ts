import { quote } from 'shell-quote';

const POSIX_SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish']);
const POWERSHELLS = new Set(['powershell', 'powershell.exe', 'pwsh', 'pwsh.exe']);

/**
 * Turn an argv-form command into the text a shell would run.
 *
 * Codex records commands as argv: `["/bin/bash","-lc","<script>"]` for unified exec, the `shell` tool's
 * `command` array, `local_shell_call.action.command`. A shell `-c` wrapper (`bash -lc`, `sh -c`,
 * `zsh -lc`, `bash -l -c`, `powershell -Command`, `cmd /c`) is reduced to its script, because the
 * script is what the agent wrote and what core's command parser understands. Any other argv is joined
 * with POSIX quoting so arguments with spaces stay one word.
 *
 * (The original implementation read only string commands, so list-form `shell` calls had empty text
 * and produced no evidence at all.)
 */
export function commandFromArgv(argv: readonly string[]): string {
  const script = shellWrapperScript(argv);
  if (script !== undefined) return script;
  return quote([...argv]);
}

/** The script of a `<shell> -c <script>` argv, or undefined when argv is not such a wrapper. */
export function shellWrapperScript(argv: readonly string[]): string | undefined {
  const first = argv[0];
  if (first === undefined) return undefined;
  const program = basename(first).toLowerCase();
  if (POSIX_SHELLS.has(program)) {
    // Options before the script: `-lc`, `-c`, `-l -c`, `--login -c`, `-e -c`… The script follows the
    // option that contains `c`.
    for (let i = 1; i < argv.length; i += 1) {
      const arg = argv[i] ?? '';
      if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg)) return argv[i + 1];
      if (!arg.startsWith('-')) return undefined;
    }
    return undefined;
  }
  if (POWERSHELLS.has(program)) {
    for (let i = 1; i < argv.length; i += 1) {
      const arg = (argv[i] ?? '').toLowerCase();
      if (arg === '-command' || arg === '-c') return argv.slice(i + 1).join(' ') || undefined;
      if (!arg.startsWith('-')) return undefined;
    }
    return undefined;
  }
  if (program === 'cmd' || program === 'cmd.exe') {
    const flag = argv.findIndex((arg, i) => i > 0 && arg.toLowerCase() === '/c');
    return flag > 0 ? argv.slice(flag + 1).join(' ') || undefined : undefined;
  }
  return undefined;
}

/**
 * `powershell` when argv runs PowerShell (`["powershell.exe","-NoProfile","-Command","…"]`, Codex on
 * Windows), so core lexes the unwrapped script with PowerShell's quoting; undefined otherwise.
 */
export function shellDialectOfArgv(argv: readonly string[] | undefined): 'powershell' | undefined {
  const first = argv?.[0];
  return first !== undefined && POWERSHELLS.has(basename(first).toLowerCase()) ? 'powershell' : undefined;
}

function basename(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut >= 0 ? path.slice(cut + 1) : path;
}

/** A JSON value as a string array, or undefined when it is not a non-empty array of strings. */
export function asStringArray(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
}

/** Command text from a value that may be a string or an argv array. */
export function commandFromValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const argv = asStringArray(value);
  return argv ? commandFromArgv(argv) : undefined;
}
