import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_FIXTURES } from '../../src/test-support/delivery-fixtures.ts';

// Each transcript reader's `readTurn` on a path that another process keeps replacing (rename is
// atomic): the real transcript, a FIFO, a directory, a symlink loop, binary bytes, nothing. Every
// read must come back — a FIFO swapped in between a reader's stat and its open must never be waited
// on — with a valid timeline and one of the shared diagnostic codes. docs/reliability.md.

let work: string;
let entry: string;
beforeAll(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'ac-rel-races-')));
  entry = join(work, 'read-turn-loop.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'read-turn-loop.ts')],
    outfile: entry,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    mainFields: ['module', 'main'],
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
}, 60_000);
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

interface LoopReport {
  readonly iterations: number;
  readonly withData: number;
  readonly codes: Record<string, number>;
}

/** Run the read loop in a child; its hard timeout is the failure condition (a wedged read). */
function readLoop(agent: string, path: string, iterations: number, timeoutMs: number): Promise<{ timedOut: boolean; report?: LoopReport; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, agent, path, String(iterations)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').at(-1);
      resolve({ timedOut, stderr, ...(line ? { report: JSON.parse(line) as LoopReport } : {}) });
    });
  });
}

/** Start a process that renames `variants/<name>` onto `target` and back, in turn, until `stop` exists. */
function startFlipper(target: string, variants: string, names: readonly string[], stop: string): ReturnType<typeof spawn> {
  return spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { existsSync, renameSync } from 'node:fs';
       const names = ${JSON.stringify(names)}, target = ${JSON.stringify(target)}, dir = ${JSON.stringify(variants)};
       const stopAt = Date.now() + 120_000;
       for (let i = 0; !existsSync(${JSON.stringify(stop)}) && Date.now() < stopAt; i++) {
         const name = names[i % names.length];
         renameSync(dir + '/' + name, target);
         renameSync(target, dir + '/' + name);
       }`,
    ],
    { stdio: 'ignore' },
  );
}

function stopFlipper(child: ReturnType<typeof spawn>, stop: string): Promise<void> {
  writeFileSync(stop, '');
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Codes a reader may give for a path that is, at some instant, any of the variants. */
const EXPECTED_CODES = new Set([
  'missing-file',
  'not-a-file',
  'read-error',
  'unreadable-file',
  'read-failed',
  'empty-file',
  'unknown-format',
  'wrong-agent',
  'corrupt-line',
  'cap-reached',
  'turn-not-found',
  'no-turn',
  'no-prompt',
  'no-boundary',
  'task-notification-turn',
  'legacy-format',
  'legacy-parse-error',
  'boundary-rewritten',
]);

describe.each(DELIVERY_FIXTURES.map((f) => [f.agent, f] as const))('%s readTurn: the transcript replaced while it is read', (agent, fixture) => {
  it('every read returns a valid timeline; a FIFO swapped in is never waited on', { timeout: 90_000 }, async () => {
    const dir = join(work, agent);
    const variants = join(dir, 'variants');
    mkdirSync(variants, { recursive: true });
    copyFileSync(fixture.transcriptFile, join(variants, 'real'));
    execFileSync('mkfifo', [join(variants, 'fifo')]);
    mkdirSync(join(variants, 'directory'));
    symlinkSync(join(variants, 'loop'), join(variants, 'loop'));
    writeFileSync(join(variants, 'binary'), Buffer.from([0, 0xff, 0xfe, 10, 1, 2, 3]));
    const target = join(dir, 'transcript.jsonl');
    const stop = join(dir, 'stop');
    // The FIFO follows the real file most often: the window between a stat that saw a regular file
    // and the open is what this test is about.
    const flipper = startFlipper(target, variants, ['real', 'fifo', 'real', 'fifo', 'directory', 'real', 'loop', 'binary'], stop);
    try {
      const run = await readLoop(agent, target, 3000, 20_000);
      expect(run.timedOut, `readTurn blocked (a FIFO opened without O_NONBLOCK?) — stderr: ${run.stderr}`).toBe(false);
      expect(run.report, run.stderr).toBeDefined();
      const report = run.report!;
      expect(report.iterations).toBe(3000);
      for (const code of Object.keys(report.codes)) expect([...EXPECTED_CODES], `unexpected diagnostic ${code}`).toContain(code);
      // How often the real file was read whole depends on the scheduler; only the refusals are certain.
      expect(report.withData).toBeLessThan(3000);
    } finally {
      await stopFlipper(flipper, stop);
    }
  });
});
