import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractNotes, NOTES_END, NOTES_START, REPORT_POINTER } from './render-report.ts';
import { findRepoRoot } from './repo-root.ts';

describe('extractNotes', () => {
  it('returns the hand-written analysis between the markers', () => {
    expect(extractNotes(`# B\n${NOTES_START}\nThe engine is slow at 5,000 files.\n${NOTES_END}\n`)).toBe('The engine is slow at 5,000 files.');
  });

  it('returns undefined without markers', () => {
    expect(extractNotes('# Benchmarks\n')).toBeUndefined();
  });
});

describe('REPORT_POINTER', () => {
  const scripts = (dir: string): Record<string, string> =>
    (JSON.parse(readFileSync(join(findRepoRoot(), dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

  it('points at root and bench scripts that exist and do what it says', () => {
    // From the root, `pnpm bench -- --quick` hands the flag to every package's bench; the root script
    // runs only this package's, quick.
    expect(REPORT_POINTER).toContain('`pnpm bench:quick`');
    expect(scripts('.')['bench:quick']).toBe('pnpm --filter @agent-checkpoint/bench bench -- --quick');
    expect(REPORT_POINTER).toContain('`pnpm --filter @agent-checkpoint/bench bench:check`');
    expect(scripts('bench')['bench:check']).toBeDefined();
  });
});
