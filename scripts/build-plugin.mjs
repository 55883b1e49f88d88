#!/usr/bin/env node
// `pnpm build:plugin`: refreshes the hook bundle the agent plugins run, committed under
// plugins/agent-checkpoint/dist/ (like a GitHub Action's dist/: a plugin is installed by copying the
// repository directory, with no `npm install` and no build step on the user's machine).
//
// The bundle is built by packages/delivery-hook's own build-hook.mjs into a scratch directory, and
// every file that build wrote is copied — the list is read from the build's output, never hard-coded,
// so a build that adds or renames an output file needs no change here. Files of an earlier build that
// the current one no longer writes are removed. The build is deterministic (esbuild, no timestamps,
// no absolute paths in the output), so a fresh build of unchanged sources is byte-identical to the
// committed one; packages/delivery-hook/test/plugin-bundle.test.ts fails when it is not.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
/** Where the plugins (Claude Code, Codex CLI) and the Gemini CLI extension find the hook bin. */
export const PLUGIN_DIST_DIR = join(root, 'plugins', 'agent-checkpoint', 'dist');
/** The launcher the hook commands run (the other outputs are loaded by it). */
export const PLUGIN_HOOK_BIN = 'agent-checkpoint-hook.cjs';

/**
 * Build the hook bin into a fresh scratch directory and return it with the names of the files the
 * build wrote (sorted). The caller removes the directory.
 */
export async function buildHookOutputs() {
  const { buildHook } = await import(pathToFileURL(join(root, 'packages', 'delivery-hook', 'build-hook.mjs')).href);
  const scratch = mkdtempSync(join(tmpdir(), 'agent-checkpoint-plugin-build-'));
  try {
    await buildHook(join(scratch, PLUGIN_HOOK_BIN));
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  return { dir: scratch, files: listFiles(scratch) };
}

/** Every file under `dir`, as sorted `/`-separated relative paths (a build may write subdirectories). */
export function listFiles(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const name = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      return entry.isDirectory() ? listFiles(dir, name) : entry.isFile() ? [name] : [];
    })
    .sort();
}

/** Refresh `targetDir` (default {@link PLUGIN_DIST_DIR}) to exactly the files of a fresh build. */
export async function buildPlugin(targetDir = PLUGIN_DIST_DIR) {
  const { dir, files } = await buildHookOutputs();
  try {
    // Start from an empty directory: files of an earlier build that this one no longer writes go.
    rmSync(targetDir, { recursive: true, force: true });
    for (const name of files) {
      mkdirSync(dirname(join(targetDir, name)), { recursive: true });
      copyFileSync(join(dir, name), join(targetDir, name));
      chmodSync(join(targetDir, name), statSync(join(dir, name)).mode & 0o777);
    }
    return files;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await buildPlugin();
  process.stdout.write(`plugins/agent-checkpoint/dist: ${files.join(', ')}\n`);
}
