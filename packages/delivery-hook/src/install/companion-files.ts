import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { readRegularFileSync } from '@agent-checkpoint/core';
import { writeSettings } from '@agent-checkpoint/setup-kit';
import type { CompanionFile } from '../agents/agent-profile.ts';

/** The extension is a few KiB; anything larger is not ours. */
const MAX_COMPANION_BYTES = 256 * 1024;

function readText(path: string): string | undefined {
  try {
    return readRegularFileSync(path, MAX_COMPANION_BYTES)?.text;
  } catch {
    return undefined;
  }
}

/** What {@link syncCompanionFiles} did (or would do) per file, for install's report. */
export type CompanionResult = { readonly path: string; readonly action: 'written' | 'unchanged' | 'would-write' };

/**
 * Put each companion file (Pi's extension) in place as a copy of the shipped one: written when it is
 * missing or differs, left alone when equal. The shipped file is read as a regular file only.
 */
export async function syncCompanionFiles(files: readonly CompanionFile[], dryRun: boolean): Promise<CompanionResult[]> {
  const results: CompanionResult[] = [];
  for (const file of files) {
    const source = readText(file.from);
    if (source === undefined) throw new Error(`the shipped file ${file.from} is missing or unreadable`);
    const current = readText(file.path);
    if (current === source) {
      results.push({ path: file.path, action: 'unchanged' });
      continue;
    }
    if (dryRun) {
      results.push({ path: file.path, action: 'would-write' });
      continue;
    }
    mkdirSync(dirname(file.path), { recursive: true });
    await writeSettings(file.path, Buffer.from(source, 'utf8'));
    results.push({ path: file.path, action: 'written' });
  }
  return results;
}

/**
 * Remove the companion files once their settings file is gone (an extension without its `hook.json`
 * would warn on every turn). A file the user changed since (not the shipped text) is left alone.
 */
export function removeCompanionFiles(files: readonly CompanionFile[]): string[] {
  const removed: string[] = [];
  for (const file of files) {
    if (!existsSync(file.path)) continue;
    const shipped = readText(file.from);
    if (shipped !== undefined && readText(file.path) !== shipped) continue;
    rmSync(file.path, { force: true });
    removed.push(file.path);
  }
  return removed;
}
