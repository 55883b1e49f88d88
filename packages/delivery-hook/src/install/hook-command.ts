import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellCommand } from '../manage/shell-quote.ts';
import type { HookEntrySpec } from './hook-entries.ts';

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
 * Whether a hook command is one of ours: it runs a file named `agent-checkpoint-hook.cjs` (or the
 * older `.mjs`) or the `agent-checkpoint-hook` bin, from any path, quoted or not — so entries written
 * by older versions, another install location or by hand are found and replaced rather than duplicated.
 */
export function isOurHookCommand(command: unknown): boolean {
  return typeof command === 'string' && /(?:^|[\s'"/\\])agent-checkpoint-hook(?:\.[cm]js)?(?=$|[\s'"])/.test(command);
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
