import { lstatSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import {
  CONFIG_SCHEMA_URL,
  describeReadFailure,
  detectPresets,
  findProjectRoot,
  MAX_CONFIG_BYTES,
  pickPresets,
  PRESETS,
  PROJECT_CONFIG_FILE,
  readRegularFileBytesSync,
  UnsafePathError,
  writeFileSafelySync,
} from '@agent-checkpoint/core';
import { EXIT_FAILURE, EXIT_OK } from '@agent-checkpoint/setup-kit';
import type { SetupContext } from './setup-context.ts';

/** The options of `init`, as commander parses them (commands/hook-cli.ts declares them). */
export interface InitOptions {
  readonly cwd?: string;
  readonly force?: boolean;
  readonly print?: boolean;
}

/** `agent-checkpoint-hook init`. */
export async function runInitCommand(options: InitOptions, context: SetupContext): Promise<number> {
  const root = findProjectRoot(resolve(context.cwd, options.cwd ?? '.'));
  const path = join(root, PROJECT_CONFIG_FILE);
  const detected = pickPresets(await detectPresets(root, Object.values(PRESETS)));
  const text = renderInitFile({ schema: CONFIG_SCHEMA_URL, detected });
  if (options.print === true) {
    await context.write(text);
    return EXIT_OK;
  }
  let backup: string | undefined;
  try {
    // lstat, not exists: a dangling symlink is "something there" too (writing would create its target).
    if (lstatOrUndefined(path) !== undefined) {
      if (options.force !== true) {
        context.writeError(`agent-checkpoint: init: ${path} exists; left alone (--force overwrites it, keeping a backup)\n`);
        return EXIT_FAILURE;
      }
      backup = keepBackup(root, path);
    }
    // core's safe write, as for every file the product writes: never through a symlink, never into a
    // FIFO or device, atomically (temp file + rename).
    writeFileSafelySync(root, PROJECT_CONFIG_FILE, text, { mode: 0o644 });
  } catch (error) {
    context.writeError(`agent-checkpoint: init: ${path}: ${describeInitFailure(error)}; nothing written\n`);
    return EXIT_FAILURE;
  }
  const found = detected.length === 0 ? 'no preset detected' : `presets ${detected.join(', ')}`;
  const tool = context.tool ?? 'agent-checkpoint-hook';
  await context.write(
    `Wrote ${path} (${found})${backup === undefined ? '' : `; the previous file is ${backup}`}.\n` +
      `Edit it, then check it with ${context.style.bold(`${tool} config`)}. Commands and write paths in it apply only once you run ${context.style.bold(`${tool} trust`)}.\n`,
  );
  return EXIT_OK;
}

/**
 * Copy the existing file to `<file>.bak` (or `.bak.<time>` when that name is taken by anything, a link
 * included) before `--force` replaces it. The existing file must be a regular file, read without
 * blocking or following a link (core's safe read); the copy is a safe write. Returns the backup's path.
 */
function keepBackup(root: string, path: string): string {
  const read = readRegularFileBytesSync(path, MAX_CONFIG_BYTES);
  if (read === undefined) throw new Error('vanished while being read');
  const plain = `${path}.bak`;
  const backup = lstatOrUndefined(plain) === undefined ? plain : `${plain}.${new Date().toISOString().replace(/[:.]/g, '-')}`;
  writeFileSafelySync(root, basename(backup), read.bytes, { mode: 0o644 });
  return backup;
}

function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A refused or failed write or backup, in words. */
function describeInitFailure(error: unknown): string {
  if (error instanceof UnsafePathError) return error.reason;
  return describeReadFailure(error);
}

/** The file `init` writes: JSON with comments, valid as it is and with every example uncommented. */
function renderInitFile(input: { readonly schema: string; readonly detected: readonly string[] }): string {
  const lines = ['{', `  "$schema": ${JSON.stringify(input.schema)},`];
  lines.push(
    '  // Presets: detected from marker files at the repository root (and applied even when not listed);',
    '  // naming them here keeps them when a marker moves. `agent-checkpoint-hook presets` lists them all.',
    `  "extends": ${JSON.stringify(input.detected)},`,
    '',
    '  // Examples: uncomment and adapt. `agent-checkpoint-hook config` shows the merged result.',
    '  // A category: which changed files need which follow-up, and the command that shows it was done.',
    '  // "categories": [',
    '  //   { "id": "migrations", "include": ["db/migrations/**"], "action": "Apply the migrations (make migrate).", "evidence": ["make migrate"] }',
    '  // ],',
    '  // "disableCategories": ["docs"],',
    '  // "docsPatterns": ["docs/**", "**/*.md"],',
    '  // "loopGuard": { "maxBlocksPerTurn": 2 },',
    '  // Privileged (apply only after `agent-checkpoint-hook trust`): the hook runs this itself.',
    '  // "runTests": { "enabled": true, "command": "npm test" },',
    '',
    '  "enabled": true',
    '}',
    '',
  );
  return lines.join('\n');
}
