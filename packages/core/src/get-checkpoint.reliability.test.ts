import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { getCheckpoint } from './get-checkpoint.ts';
import { makeTempDir, makeTempGitRepo } from './git/temp-git-repo.ts';
import type { TranscriptReader } from './transcript/transcript-reader.ts';
import { runModuleSnippet } from './test-support/run-module-snippet.ts';

// getCheckpoint, the entry point both routes call, under hostile requests (docs/reliability.md): it
// never rejects, ends within its signal's budget even when a reader never answers, and reports
// problems as one-line diagnostics. Readers, git and config have their own reliability suites; this
// file checks that the pipeline around them holds.

const HERE = dirname(fileURLToPath(import.meta.url));
const MODES = ['actionable', 'all-clear', 'no-changes', 'disabled', 'not-a-repo', 'generic-fallback', 'internal-error', 'context'];

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const silentReader = (readTurn: TranscriptReader['readTurn']): TranscriptReader => ({
  specificationVersion: 'transcript-reader-v1',
  agent: 'claude',
  readTurn,
  locateTranscript: () => Promise.resolve(undefined),
});

describe('getCheckpoint under hostile requests', () => {
  it('a reader that never answers: the outcome arrives within the signal budget, file-based', { timeout: 30_000 }, async () => {
    const r = makeTempGitRepo();
    cleanups.push(r.remove);
    r.write('src/app.ts', 'changed\n');
    const started = Date.now();
    const outcome = await getCheckpoint({
      agent: 'claude',
      cwd: r.dir,
      env: r.env,
      transcript: { reader: silentReader(() => new Promise(() => undefined)), path: '/t.jsonl' },
      signal: AbortSignal.timeout(500),
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(MODES).toContain(outcome.mode);
    expect(outcome.files.every((f) => f.reason === 'fallback-all-uncommitted')).toBe(true);
    for (const line of outcome.diagnostics) expect(line).not.toContain('\n');
  });

  it.each([
    ['a directory that does not exist', (base: string) => join(base, 'gone')],
    ['a regular file', (base: string) => (writeFileSync(join(base, 'file'), 'x'), join(base, 'file'))],
    ['a symlink loop', (base: string) => (symlinkSync(join(base, 'loop'), join(base, 'loop')), join(base, 'loop'))],
    ['a FIFO', (base: string) => (execFileSync('mkfifo', [join(base, 'fifo')]), join(base, 'fifo'))],
    ['a path holding a NUL byte', (base: string) => `${base}/a\u0000b`],
    ['a relative path', () => 'relative/dir'],
    ['a path longer than PATH_MAX', (base: string) => join(base, `${'d'.repeat(200)}/`.repeat(25))],
  ])('cwd is %s: never rejects, bounded, one-line diagnostics', { timeout: 30_000 }, async (_name, make) => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    const started = Date.now();
    const outcome = await getCheckpoint({
      agent: 'gemini',
      cwd: make(d.dir),
      env: d.env,
      transcript: { reader: silentReader(() => Promise.reject(new Error('boom\nwith a second line'))), path: '/t.jsonl' },
      signal: AbortSignal.timeout(10_000),
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(MODES).toContain(outcome.mode);
    for (const line of outcome.diagnostics) expect(line, JSON.stringify(outcome.diagnostics)).not.toMatch(/\n\s+at /);
  });

  it('a FIFO as the project config and as the user config (child process: a blocked read never returns)', { timeout: 60_000 }, async () => {
    const r = makeTempGitRepo();
    cleanups.push(r.remove);
    r.write('src/app.ts', 'changed\n');
    execFileSync('mkfifo', [join(r.dir, '.agent-checkpoint.json')]);
    const userFifo = join(r.dir, '..', 'user-config.fifo');
    execFileSync('mkfifo', [userFifo]);
    mkdirSync(join(r.dir, '..', 'cache'), { recursive: true });
    const script = `
      const { getCheckpoint } = await import(${JSON.stringify(join(HERE, 'get-checkpoint.ts'))});
      const outcome = await getCheckpoint({ agent: 'codex', cwd: ${JSON.stringify(r.dir)},
        env: { ...${JSON.stringify(r.env)}, AGENT_CHECKPOINT_CONFIG: ${JSON.stringify(userFifo)}, XDG_CACHE_HOME: ${JSON.stringify(join(r.dir, '..', 'cache'))} },
        signal: AbortSignal.timeout(10000) });
      process.stdout.write(JSON.stringify({ mode: outcome.mode, diagnostics: outcome.diagnostics }) + '\\n');
      process.exit(0);`;
    const run = await runModuleSnippet(script, HERE, { timeoutMs: 30_000 });
    expect(run.timedOut, 'getCheckpoint blocked on a FIFO configuration file').toBe(false);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { mode: string; diagnostics: string[] };
    // Both files ignored with a diagnostic each; the built-in defaults decide.
    expect(MODES.filter((m) => m !== 'generic-fallback')).toContain(out.mode);
    expect(out.diagnostics.filter((d) => /is not a regular file/.test(d))).toHaveLength(2);
  });
});
