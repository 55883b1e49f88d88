import { existsSync, lstatSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
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
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, parseCommandArgs } from '@agent-checkpoint/setup-kit';
import { defaultHookProgram } from '../install/hook-command.ts';
import type { SetupContext } from './setup-context.ts';

export const INIT_USAGE = `Usage:
  agent-checkpoint-hook init [--cwd DIR] [--force] [--print]

Writes ${PROJECT_CONFIG_FILE} at the repository root of DIR (default: the current directory) with:
  - "$schema": the JSON schema shipped with the package, for completion and checks in your editor
    (./node_modules/@agent-checkpoint/core/schema.json when the project installs the package, else
    the copy beside this bin, as a file:// URL);
  - "extends": the presets detected here (agent-checkpoint-hook presets lists them all);
  - commented examples of the common keys. The file is JSON with comments.
An existing file is left alone unless --force, which first copies it to ${PROJECT_CONFIG_FILE}.bak
(or .bak.<time> when that exists too). Nothing is written through a symlink, and a FIFO, device or
directory at either name is refused.

Options:
  --cwd DIR   any directory of the project
  --force     overwrite an existing file (keeping a backup)
  --print     print the file, write nothing
  --help      this text

Exit status: 0 written (or printed), 1 the file exists (without --force) or could not be written, 2 usage error.
`;

interface Options {
  cwd?: string;
  force?: boolean;
  print?: boolean;
  help?: boolean;
}

/** The package-relative path an editor resolves when the project installs the package. */
export const INSTALLED_SCHEMA = 'node_modules/@agent-checkpoint/core/schema.json';

/** `agent-checkpoint-hook init`. */
export async function runInitCommand(args: readonly string[], context: SetupContext): Promise<number> {
  const parsed = parseCommandArgs<Options>(args, { cwd: { type: 'string' }, force: { type: 'boolean' }, print: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } });
  if (!parsed.ok) {
    context.writeError(`agent-checkpoint: ${parsed.error}\n\n${INIT_USAGE}`);
    return EXIT_USAGE;
  }
  const options = parsed.values;
  if (options.help === true) {
    await context.write(INIT_USAGE);
    return EXIT_OK;
  }
  const root = findProjectRoot(resolve(context.cwd, options.cwd ?? '.'));
  const path = join(root, PROJECT_CONFIG_FILE);
  const detected = pickPresets(await detectPresets(root, Object.values(PRESETS)));
  const text = renderInitFile({ schema: schemaReference(root), detected });
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
  await context.write(
    `Wrote ${path} (${found})${backup === undefined ? '' : `; the previous file is ${backup}`}.\n` +
      `Edit it, then check it with ${context.style.bold('agent-checkpoint-hook config')}. Commands and write paths in it apply only once you run ${context.style.bold('agent-checkpoint-hook trust')}.\n`,
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

/**
 * What `$schema` points at: the schema of the installed package, relative to the project root, when
 * it is there (an editor resolves it for everyone who installed the project's dependencies); else
 * the copy the build puts beside the bin, as a `file://` URL (valid on this machine only); else none.
 */
export function schemaReference(root: string): string | undefined {
  if (existsSync(join(root, INSTALLED_SCHEMA))) return `./${INSTALLED_SCHEMA}`;
  const besideBin = join(dirname(defaultHookProgram().bundle), 'schema.json');
  return existsSync(besideBin) ? pathToFileURL(besideBin).href : undefined;
}

/** The file `init` writes: JSON with comments, valid as it is and with every example uncommented. */
export function renderInitFile(input: { readonly schema: string | undefined; readonly detected: readonly string[] }): string {
  const lines = ['{'];
  if (input.schema !== undefined) lines.push(`  "$schema": ${JSON.stringify(input.schema)},`);
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
