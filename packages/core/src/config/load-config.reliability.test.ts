import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync, symlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from './default-config.ts';
import { loadConfig } from './load-config.ts';
import { runModuleSnippet, type SnippetRun } from '../test-support/run-module-snippet.ts';

// Reliability of loadConfig under hostile configuration paths (docs/reliability.md). Config files are
// read synchronously (they are tiny and on the hook's hot path), so a read that blocks — a FIFO, an
// endless device — stops the event loop and no timer can end it. Such cases therefore run in a child
// process whose hard timeout is the failure condition, never in the test process itself.

const HERE = dirname(fileURLToPath(import.meta.url));
const LOAD_CONFIG = join(HERE, 'load-config.ts');

let base: string;
let repo: string;
let home: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ac-rel-config-')));
  repo = join(base, 'repo');
  home = join(base, 'home');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(home);
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

function runIsolated(script: string, timeoutMs: number): Promise<SnippetRun> {
  return runModuleSnippet(script, HERE, { timeoutMs });
}

/** What one isolated loadConfig call reported. */
interface Loaded {
  readonly diagnostics: string[];
  readonly gitTimeoutMs: number;
}

/** loadConfig in a child process; fails the test (with the child's output) if it does not finish. */
async function loadIsolated(env: Record<string, string>, timeoutMs = 15_000): Promise<Loaded> {
  const script = `
    const { loadConfig } = await import(${JSON.stringify(LOAD_CONFIG)});
    const { config, diagnostics } = await loadConfig({ cwd: ${JSON.stringify(repo)}, homeDir: ${JSON.stringify(home)}, env: ${JSON.stringify(env)}, cacheDir: false });
    process.stdout.write(JSON.stringify({ diagnostics, gitTimeoutMs: config.gitTimeoutMs }) + '\\n');
    process.exit(0);`;
  const run = await runIsolated(script, timeoutMs);
  expect(run.timedOut, `loadConfig did not finish within ${timeoutMs} ms (it blocked); stderr: ${run.stderr}`).toBe(false);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Loaded;
}

function expectOneLineEach(diagnostics: readonly string[]): void {
  for (const line of diagnostics) {
    expect(line).not.toContain('\n');
    expect(line).not.toMatch(/^\s+at /);
  }
}

const projectPath = (): string => join(repo, '.agent-checkpoint.json');

describe('loadConfig: a configuration path that is not a regular file is refused, never waited on', () => {
  it('a FIFO as the project file', { timeout: 30_000 }, async () => {
    execFileSync('mkfifo', [projectPath()]);
    const loaded = await loadIsolated({});
    expect(loaded.diagnostics.some((d) => d.startsWith(`${projectPath()}: `))).toBe(true);
    expect(loaded.gitTimeoutMs).toBe(DEFAULT_CONFIG.gitTimeoutMs);
    expectOneLineEach(loaded.diagnostics);
  });

  it('a FIFO as the user file (AGENT_CHECKPOINT_CONFIG)', { timeout: 30_000 }, async () => {
    const fifo = join(base, 'user-config.fifo');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(projectPath(), JSON.stringify({ gitTimeoutMs: 1234 }));
    const loaded = await loadIsolated({ AGENT_CHECKPOINT_CONFIG: fifo });
    expect(loaded.diagnostics.some((d) => d.startsWith(`${fifo}: `))).toBe(true);
    // The other layer still applies.
    expect(loaded.gitTimeoutMs).toBe(1234);
    expectOneLineEach(loaded.diagnostics);
  });

  it('an endless device (/dev/zero) as the user file', { timeout: 30_000 }, async () => {
    const loaded = await loadIsolated({ AGENT_CHECKPOINT_CONFIG: '/dev/zero' });
    expect(loaded.diagnostics.some((d) => d.startsWith('/dev/zero: '))).toBe(true);
    expectOneLineEach(loaded.diagnostics);
  });
});

describe('loadConfig: other hostile files give one-line diagnostics and the remaining layers', () => {
  it('a symlink loop as the project file', async () => {
    symlinkSync('loop-b', join(repo, 'loop-a'));
    symlinkSync('loop-a', join(repo, 'loop-b'));
    symlinkSync('loop-a', projectPath());
    const { config, diagnostics } = await loadConfig({ cwd: repo, homeDir: home, env: {}, cacheDir: false });
    expect(config.gitTimeoutMs).toBe(DEFAULT_CONFIG.gitTimeoutMs);
    expect(diagnostics.some((d) => d.startsWith(`${projectPath()}: `) && /ELOOP/.test(d))).toBe(true);
    expectOneLineEach(diagnostics);
  });

  it('a huge sparse file (4 GiB apparent size) is refused by size without being read', async () => {
    const fd = openSync(projectPath(), 'w');
    ftruncateSync(fd, 4 * 1024 ** 3);
    closeSync(fd);
    const started = process.hrtime.bigint();
    const { config, diagnostics } = await loadConfig({ cwd: repo, homeDir: home, env: {}, cacheDir: false });
    expect(config.gitTimeoutMs).toBe(DEFAULT_CONFIG.gitTimeoutMs);
    expect(diagnostics.some((d) => d.includes('too large'))).toBe(true);
    // Not a timing assertion on speed, only a sanity bound: reading 4 GiB would take far longer.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(5_000);
  });

  it.each([
    ['binary bytes', Buffer.from([0x00, 0xff, 0xfe, 0x7b, 0x0a, 0x80, 0x81])],
    ['invalid UTF-8 inside a string', Buffer.concat([Buffer.from('{"gitTimeoutMs": 1000, "x": "'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')])],
    ['a truncated document', Buffer.from('{"categories": [{"id": "a", "include": ["src/**"')],
    ['10,000 nested arrays', Buffer.from(`${'['.repeat(10_000)}${']'.repeat(10_000)}`)],
    ['100,000 nested objects, unterminated', Buffer.from('{"a":'.repeat(100_000))],
    ['a single 900 KiB line of quotes', Buffer.from(`"${'\\"'.repeat(450 * 1024)}"`)],
    ['a JSON array, not an object', Buffer.from('[1, 2, 3]')],
    ['a UTF-16 BOM document', Buffer.from('\ufeff{"gitTimeoutMs": 1000}', 'utf16le')],
  ])('%s: never throws; the file is ignored or applied as a whole', async (_name, bytes) => {
    writeFileSync(projectPath(), bytes);
    const { config, diagnostics } = await loadConfig({ cwd: repo, homeDir: home, env: {}, cacheDir: false });
    expect([DEFAULT_CONFIG.gitTimeoutMs, 1000]).toContain(config.gitTimeoutMs);
    if (config.gitTimeoutMs === DEFAULT_CONFIG.gitTimeoutMs) expect(diagnostics.length).toBeGreaterThan(0);
    expectOneLineEach(diagnostics);
  });
});

describe('loadConfig while the file is replaced under it', () => {
  it('never blocks or throws while the project file flips between file, directory, FIFO, loop and nothing', { timeout: 60_000 }, async () => {
    // Variants renamed into place and back by a separate process (rename is atomic), so every read
    // may meet any of them — including a FIFO appearing between a stat and an open.
    const variants = join(base, 'variants');
    mkdirSync(variants);
    writeFileSync(join(variants, 'valid'), JSON.stringify({ gitTimeoutMs: 1000 }));
    writeFileSync(join(variants, 'invalid'), '{ "gitTimeoutMs": "soon" ');
    mkdirSync(join(variants, 'directory'));
    execFileSync('mkfifo', [join(variants, 'fifo')]);
    symlinkSync(join(variants, 'loop'), join(variants, 'loop'));
    const stop = join(base, 'stop');
    const flipper = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
        import { existsSync, renameSync } from 'node:fs';
        const names = ['valid', 'fifo', 'invalid', 'directory', 'fifo', 'loop'];
        const target = ${JSON.stringify(projectPath())};
        const dir = ${JSON.stringify(variants)};
        const stopAt = Date.now() + 30_000;
        for (let i = 0; !existsSync(${JSON.stringify(stop)}) && Date.now() < stopAt; i++) {
          const name = names[i % names.length];
          try { renameSync(dir + '/' + name, target); } catch { continue; }
          for (let spin = 0; spin < 2000; spin++);
          renameSync(target, dir + '/' + name);
        }`,
      ],
      { stdio: 'ignore' },
    );
    try {
      const script = `
        const { loadConfig } = await import(${JSON.stringify(LOAD_CONFIG)});
        const seen = new Set();
        for (let i = 0; i < 400; i++) {
          const { config, diagnostics } = await loadConfig({ cwd: ${JSON.stringify(repo)}, homeDir: ${JSON.stringify(home)}, env: {}, cacheDir: false });
          seen.add(config.gitTimeoutMs);
          for (const d of diagnostics) if (d.includes('\\n')) throw new Error('multi-line diagnostic: ' + d);
        }
        process.stdout.write(JSON.stringify([...seen]) + '\\n');
        process.exit(0);`;
      const run = await runIsolated(script, 45_000);
      expect(run.timedOut, `loadConfig blocked while the file was being replaced; stderr: ${run.stderr}`).toBe(false);
      expect(run.code, run.stderr).toBe(0);
      const seen = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '[]') as number[];
      for (const value of seen) expect([DEFAULT_CONFIG.gitTimeoutMs, 1000]).toContain(value);
    } finally {
      writeFileSync(stop, '');
      await new Promise<void>((resolve) => {
        if (flipper.exitCode !== null) resolve();
        else flipper.on('exit', () => resolve());
        setTimeout(() => {
          flipper.kill('SIGKILL');
          resolve();
        }, 5_000).unref();
      });
    }
  });
});
