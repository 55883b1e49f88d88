import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appendJsonlLine, MAX_LOG_LINE_BYTES, readJsonlLog } from './jsonl-log.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const Row = z.object({ n: z.number().int(), who: z.string() });

let root: string;
let stateDir: string;
const children = new Set<ChildProcess>();

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ac-jsonl-'));
  stateDir = join(root, 'state');
});
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  rmSync(root, { recursive: true, force: true });
});

const loc = () => ({ stateDir, relPath: 'metrics/p.jsonl' });

describe('appendJsonlLine / readJsonlLog', () => {
  it('round-trips records in order, creating a private state directory and a 0600 file', () => {
    for (let n = 0; n < 5; n += 1) appendJsonlLine(loc(), { n, who: 'a' });
    const read = readJsonlLog(loc(), Row);
    expect(read.records.map((r) => r.n)).toEqual([0, 1, 2, 3, 4]);
    expect(read.skippedLines).toBe(0);
    expect(read.truncated).toBe(false);
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(stateDir, 'metrics/p.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('a missing log is empty, not a problem', () => {
    expect(readJsonlLog(loc(), Row)).toEqual({ records: [], skippedLines: 0, truncated: false });
  });

  it('skips and counts corrupt lines, schema failures and a torn last line', () => {
    appendJsonlLine(loc(), { n: 1, who: 'a' });
    const path = join(stateDir, 'metrics/p.jsonl');
    appendFileSync(path, 'not json\n{"n":"two","who":"b"}\n[1,2]\n\n');
    appendJsonlLine(loc(), { n: 3, who: 'c' });
    appendFileSync(path, '{"n":4,"who"');
    const read = readJsonlLog(loc(), Row);
    expect(read.records).toEqual([
      { n: 1, who: 'a' },
      { n: 3, who: 'c' },
    ]);
    expect(read.skippedLines).toBe(4);
  });

  it('reads only the newest part of a huge file (truncated), never the whole of it', () => {
    mkdirSync(join(stateDir, 'metrics'), { recursive: true, mode: 0o700 });
    const path = join(stateDir, 'metrics/p.jsonl');
    // 8 MiB written behind our back: a huge first line, then valid rows.
    writeFileSync(path, `${'x'.repeat(8 * 1024 * 1024)}\n`);
    for (let n = 0; n < 100; n += 1) appendFileSync(path, `${JSON.stringify({ n, who: 'z' })}\n`);
    const read = readJsonlLog(loc(), Row, 64 * 1024);
    expect(read.truncated).toBe(true);
    expect(read.records).toHaveLength(100);
    expect(read.records[99]).toEqual({ n: 99, who: 'z' });
  });

  it('keeps the file under its cap: past the cap it is cut to its newest half', () => {
    const cap = 4096;
    let compactions = 0;
    for (let n = 0; n < 500; n += 1) {
      if (appendJsonlLine(loc(), { n, who: 'bounded' }, cap).compacted) compactions += 1;
      expect(statSync(join(stateDir, 'metrics/p.jsonl')).size).toBeLessThanOrEqual(cap);
    }
    expect(compactions).toBeGreaterThanOrEqual(4);
    const read = readJsonlLog(loc(), Row, cap);
    expect(read.skippedLines).toBe(0);
    expect(read.records.at(-1)).toEqual({ n: 499, who: 'bounded' });
    // Newest kept, in order, without gaps.
    const ns = read.records.map((r) => r.n);
    expect(ns).toEqual(Array.from({ length: ns.length }, (_, i) => 500 - ns.length + i));
  });

  it('refuses a record longer than the line limit', () => {
    expect(() => appendJsonlLine(loc(), { n: 1, who: 'x'.repeat(MAX_LOG_LINE_BYTES) })).toThrow(RangeError);
    expect(existsSync(join(stateDir, 'metrics/p.jsonl'))).toBe(false);
  });

  it('never writes or reads through a symlink planted as the log', () => {
    mkdirSync(join(stateDir, 'metrics'), { recursive: true, mode: 0o700 });
    const victim = join(root, 'victim.txt');
    writeFileSync(victim, `${JSON.stringify({ n: 7, who: 'victim' })}\n`);
    symlinkSync(victim, join(stateDir, 'metrics/p.jsonl'));
    expect(() => appendJsonlLine(loc(), { n: 1, who: 'a' })).toThrow(/symlink|not a regular file/);
    expect(readFileSync(victim, 'utf8')).toBe(`${JSON.stringify({ n: 7, who: 'victim' })}\n`);
    const read = readJsonlLog(loc(), Row);
    expect(read.records).toEqual([]);
    expect(read.problem).toMatch(/p\.jsonl/);
  });

  it('a FIFO planted as the log is refused at once, never waited on', () => {
    mkdirSync(join(stateDir, 'metrics'), { recursive: true, mode: 0o700 });
    execFileSync('mkfifo', [join(stateDir, 'metrics/p.jsonl')]);
    expect(() => appendJsonlLine(loc(), { n: 1, who: 'a' })).toThrow(/not a regular file/);
    expect(readJsonlLog(loc(), Row).problem).toMatch(/regular file/i);
  });

  it('concurrent appends from 6 processes: every line intact, none lost below the cap', { timeout: 120_000 }, async () => {
    const go = join(root, 'go');
    const perProcess = 200;
    const script = (who: number): string => `
      import { existsSync, writeFileSync } from 'node:fs';
      const { appendJsonlLine } = await import(${JSON.stringify(join(HERE, 'jsonl-log.ts'))});
      writeFileSync(${JSON.stringify(join(root, 'ready-'))} + ${who}, '');
      const deadline = Date.now() + 60000;
      while (!existsSync(${JSON.stringify(go)}) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      for (let n = 0; n < ${perProcess}; n++) appendJsonlLine({ stateDir: ${JSON.stringify(stateDir)}, relPath: 'metrics/p.jsonl' }, { n, who: 'p${who}', pad: 'y'.repeat(300) });
      process.exit(0);`;
    let exited = 0;
    const runs = Array.from({ length: 6 }, (_, i) => run(script(i)).finally(() => (exited += 1)));
    // Start together once every child is up (or stop waiting when one died early: its code is checked below).
    const readyBy = Date.now() + 60_000;
    while (readdirSync(root).filter((n) => n.startsWith('ready-')).length < 6 && exited === 0 && Date.now() < readyBy) await new Promise((r) => setTimeout(r, 20));
    writeFileSync(go, '');
    for (const result of await Promise.all(runs)) expect(result.code, result.stderr).toBe(0);
    const read = readJsonlLog(loc(), Row.extend({ pad: z.string() }));
    expect(read.skippedLines).toBe(0);
    expect(read.records).toHaveLength(6 * perProcess);
    for (let i = 0; i < 6; i += 1) {
      // Each process's lines arrive in its own order.
      expect(read.records.filter((r) => r.who === `p${i}`).map((r) => r.n)).toEqual(Array.from({ length: perProcess }, (_, n) => n));
    }
  });
});

describe('concurrent appends with compaction', () => {
  it('4 processes appending past a small cap: the file stays bounded and every line read is whole', { timeout: 120_000 }, async () => {
    const cap = 8 * 1024;
    const script = (who: number): string => `
      const { appendJsonlLine } = await import(${JSON.stringify(join(HERE, 'jsonl-log.ts'))});
      for (let n = 0; n < 300; n++) appendJsonlLine({ stateDir: ${JSON.stringify(stateDir)}, relPath: 'metrics/p.jsonl' }, { n, who: 'p${who}' }, ${cap});
      process.exit(0);`;
    for (const result of await Promise.all(Array.from({ length: 4 }, (_, i) => run(script(i))))) expect(result.code, result.stderr).toBe(0);
    // A compaction racing an append may drop that line (documented), never tear one.
    const size = statSync(join(stateDir, 'metrics/p.jsonl')).size;
    expect(size).toBeLessThanOrEqual(cap);
    const read = readJsonlLog(loc(), Row, cap);
    expect(read.skippedLines).toBe(0);
    expect(read.records.length).toBeGreaterThan(50);
  });
});

function run(script: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: HERE, stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(child);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, stderr });
    });
  });
}
