import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Temp files for tests that need modified copies of fixtures. Used by tests only. Call `cleanup()`
 * in `afterEach` / `afterAll`: every directory created here is removed.
 */
export class RolloutTestFiles {
  readonly #dirs: string[] = [];

  dir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'ac-codex-'));
    this.#dirs.push(dir);
    return dir;
  }

  /** Write raw content to a new temp file and return its path. */
  write(content: string | Buffer, name = 'rollout.jsonl'): string {
    const path = join(this.dir(), name);
    writeFileSync(path, content);
    return path;
  }

  /** Write lines (strings or objects, serialized compactly) as a JSONL file. */
  writeLines(lines: readonly (string | object)[], name?: string): string {
    return this.write(lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n', name);
  }

  cleanup(): void {
    for (const dir of this.#dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

/** The lines of a JSONL fixture (without the final empty string). */
export function fixtureLines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter((line) => line !== '');
}

/** The `ordinal` of a 0.169 rollout line. */
export function ordinalOf(line: string): number {
  return (JSON.parse(line) as { ordinal: number }).ordinal;
}
