#!/usr/bin/env node
// Stages the Gemini CLI extension of this clone into <destination>: only the files the extension
// uses, as git tracks them. `gemini extensions install <path>` (Gemini CLI 0.61) copies the whole
// directory with `fs.cp` — no ignore file, no filter — so installing a clone where `pnpm install`
// ran copies its node_modules and build outputs too. Usage (from the clone):
//
//   pnpm gemini-extension <destination> && gemini extensions install <destination> --consent
//
// The destination must not exist yet, or be empty. Nothing outside it is written.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What the extension is made of: its manifest, the hooks and commands Gemini reads beside it, the
 * plugin directory its hooks run from (`${extensionPath}/plugins/agent-checkpoint/…`), and the
 * licence and README that go with any copy.
 */
export const EXTENSION_PATHS = ['gemini-extension.json', 'GEMINI.md', 'hooks', 'commands', 'skills', 'policies', 'plugins/agent-checkpoint', 'LICENSE', 'README.md'];

/** Repository-relative paths of the tracked files under {@link EXTENSION_PATHS}. */
export function extensionFiles(repoRoot) {
  const out = execFileSync('git', ['ls-files', '-z', '--', ...EXTENSION_PATHS], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  // A tracked file deleted in the working tree is not staged (git would not give it to a clone either).
  return out.split('\0').filter((file) => file !== '' && existsSync(path.join(repoRoot, file)));
}

export function stageGeminiExtension(repoRoot, destination) {
  if (existsSync(destination) && readdirSync(destination).length > 0) throw new Error(`${destination} is not empty`);
  const files = extensionFiles(repoRoot);
  if (!files.includes('gemini-extension.json')) throw new Error(`${repoRoot} has no tracked gemini-extension.json`);
  for (const file of files) {
    mkdirSync(path.dirname(path.join(destination, file)), { recursive: true });
    cpSync(path.join(repoRoot, file), path.join(destination, file), { verbatimSymlinks: true });
  }
  return files;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const destination = process.argv[2];
  if (destination === undefined || destination === '' || process.argv.length > 3) {
    process.stderr.write('usage: pnpm gemini-extension <destination>   (then: gemini extensions install <destination> --consent)\n');
    process.exit(2);
  }
  const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  try {
    const files = stageGeminiExtension(repoRoot, path.resolve(destination));
    process.stdout.write(`staged ${files.length} files into ${path.resolve(destination)}\nnow run: gemini extensions install ${JSON.stringify(path.resolve(destination))} --consent\n`);
  } catch (error) {
    process.stderr.write(`stage-gemini-extension: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
