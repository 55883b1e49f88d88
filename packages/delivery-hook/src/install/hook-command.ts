import { realpathSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellCommand } from '../manage/shell-quote.ts';
import type { HookEntrySpec } from './hook-entries.ts';

/** File name of the bundled hook; also how our entries are recognised in settings files. */
export const HOOK_BUNDLE_NAME = 'agent-checkpoint-hook.mjs';

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
  const bundle = basename(self) === HOOK_BUNDLE_NAME ? self : resolve(dirname(self), '..', '..', 'dist', HOOK_BUNDLE_NAME);
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
 * Whether a hook command is one of ours: it runs a file named `agent-checkpoint-hook.mjs` or the
 * `agent-checkpoint-hook` bin, from any path, quoted or not — so entries written by older versions,
 * another install location or by hand are found and replaced rather than duplicated.
 */
export function isOurHookCommand(command: unknown): boolean {
  return typeof command === 'string' && /(?:^|[\s'"/\\])agent-checkpoint-hook(?:\.mjs)?(?=$|[\s'"])/.test(command);
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
