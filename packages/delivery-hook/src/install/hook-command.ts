import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellCommand } from '@agent-checkpoint/setup-kit';
import type { HookEntrySpec } from './hook-entry-spec.ts';

/** File name of the hook bin (the launcher); also how our entries are recognised in settings files. */
export const HOOK_BUNDLE_NAME = 'agent-checkpoint-hook.cjs';

/**
 * The bin of versions before the code-cache launcher. Still shipped, as a shim that starts the
 * launcher, so hook entries written by those versions keep working; doctor suggests re-installing.
 */
export const LEGACY_HOOK_BUNDLE_NAME = 'agent-checkpoint-hook.mjs';

/** The bundle the launcher runs (next to it in `dist/`). */
const HOOK_MAIN_NAME = 'agent-checkpoint-hook-main.cjs';

/** What a hook command runs: absolute paths, never `npx` or a bare `node` from PATH. */
export interface HookProgram {
  /** Absolute path of the Node binary (`process.execPath` of the installing process). */
  readonly node: string;
  /** Absolute path of the bundled hook file. */
  readonly bundle: string;
}

/**
 * The hook bundle this code belongs to: the running file itself inside the bundle (as installed by
 * npm, symlinks resolved), or the package's `dist/` bundle when running from source (tests, tsx).
 */
export function defaultHookProgram(): HookProgram {
  const self = fileURLToPath(import.meta.url);
  const name = basename(self);
  const bundle =
    name === HOOK_BUNDLE_NAME || name === HOOK_MAIN_NAME ? join(dirname(self), HOOK_BUNDLE_NAME) : resolve(dirname(self), '..', '..', 'dist', HOOK_BUNDLE_NAME);
  return { node: realOrSame(process.execPath), bundle: realOrSame(bundle) };
}

/**
 * The command line an agent runs for one entry: `<node> <bundle> <args…>`, each word quoted for the
 * POSIX shell the agents run hooks with (Claude Code and Codex: `sh -c`; Gemini CLI: `bash -c`).
 */
export function hookCommandLine(program: HookProgram, entry: HookEntrySpec): string {
  return shellCommand([program.node, program.bundle, ...entry.args]);
}

/**
 * Whether a hook command is one an install of ours wrote: exactly `<node> <bundle> <args…>` as
 * {@link hookCommandLine} renders it (every version wrote that form, and `--print` prints it), with
 * an absolute node, an absolute bundle named `agent-checkpoint-hook.cjs` (or the older `.mjs`), and
 * the arguments of one of our entries (`allowedArgs`). Anything else is the user's, even when it
 * mentions our name — a wrapper script, `time … agent-checkpoint-hook.cjs claude`, `npx …`, a
 * notification: install leaves it in place and uninstall never removes it.
 */
export function isOurHookCommandForm(command: unknown, allowedArgs: readonly (readonly string[])[]): boolean {
  if (typeof command !== 'string') return false;
  const argv = splitShellWords(command);
  if (argv === undefined || argv.length < 3 || shellCommand(argv) !== command) return false;
  const [node, bundle, ...args] = argv as [string, string, ...string[]];
  if (!isAbsolute(node) || !isAbsolute(bundle)) return false;
  if (basename(bundle) !== HOOK_BUNDLE_NAME && basename(bundle) !== LEGACY_HOOK_BUNDLE_NAME) return false;
  return allowedArgs.some((wanted) => wanted.length === args.length && wanted.every((a, i) => a === args[i]));
}

/**
 * Whether a command mentions our hook at all (a word naming `agent-checkpoint-hook`, `.cjs` or
 * `.mjs`). Only for telling the user about commands of theirs that look related; never used to
 * decide what to replace or remove.
 */
export function mentionsOurHook(command: unknown): boolean {
  return typeof command === 'string' && /(?:^|[\s'"/\\])agent-checkpoint-hook(?:\.[cm]js)?(?=$|[\s'"])/.test(command);
}

/**
 * The words of a command line written by {@link shellCommand}: safe words and single-quoted words
 * (`'\''` for a quote), separated by one space. Undefined for anything else (other quoting, `$`,
 * redirections, several spaces…), which then is not a command we wrote.
 */
function splitShellWords(command: string): string[] | undefined {
  const word = /(?:[A-Za-z0-9_/.,:@%+=-]+|'[^']*'(?:\\''[^']*')*)(?: |$)/y;
  const words: string[] = [];
  word.lastIndex = 0;
  while (word.lastIndex < command.length) {
    const start = word.lastIndex;
    const match = word.exec(command);
    if (match === null) return undefined;
    const text = match[0].endsWith(' ') ? match[0].slice(0, -1) : match[0];
    words.push(text.startsWith("'") ? text.slice(1, -1).replaceAll("'\\''", "'") : text);
    if (word.lastIndex === start) return undefined;
  }
  return words;
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
