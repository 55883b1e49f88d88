import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotARegularFileError } from '../transcript/read-jsonl-tail.ts';
import { describeReadFailure, FileTooLargeError, readRegularFileSync, SymlinkRefusedError } from './read-regular-file.ts';
import { killSnippets, lastJsonLine, runModuleSnippet } from '../test-support/run-module-snippet.ts';

const HERE = dirname(fileURLToPath(import.meta.url));

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ac-read-regular-')));
});
afterEach(() => {
  killSnippets();
  rmSync(root, { recursive: true, force: true });
});

describe('readRegularFileSync', () => {
  it('reads a file of up to the cap, with its mtime; a missing file is undefined', () => {
    writeFileSync(join(root, 'f'), 'héllo');
    const read = readRegularFileSync(join(root, 'f'), 6);
    expect(read).toMatchObject({ text: 'héllo', size: 6 });
    expect(read?.mtimeMs).toBeGreaterThan(0);
    expect(readRegularFileSync(join(root, 'missing'), 10)).toBeUndefined();
  });

  it('refuses a file over the cap and a directory, with errors that say why', () => {
    writeFileSync(join(root, 'big'), '1234567');
    mkdirSync(join(root, 'dir'));
    expect(() => readRegularFileSync(join(root, 'big'), 6)).toThrow(FileTooLargeError);
    expect(() => readRegularFileSync(join(root, 'dir'), 6)).toThrow(NotARegularFileError);
    const failure = (path: string): string => {
      try {
        readRegularFileSync(path, 6);
        return 'read';
      } catch (error) {
        return describeReadFailure(error);
      }
    };
    expect(failure(join(root, 'big'))).toBe('larger than 6 bytes');
    expect(failure(join(root, 'dir'))).toBe('not a regular file (a FIFO, socket or device)');
  });

  it('never follows a symlink on the last component (to a regular file, or dangling); a linked directory above is fine', () => {
    writeFileSync(join(root, 'target'), 'secret');
    symlinkSync(join(root, 'target'), join(root, 'link'));
    symlinkSync(join(root, 'nowhere'), join(root, 'dangling'));
    expect(() => readRegularFileSync(join(root, 'link'), 100)).toThrow(SymlinkRefusedError);
    expect(() => readRegularFileSync(join(root, 'dangling'), 100)).toThrow(SymlinkRefusedError);
    try {
      readRegularFileSync(join(root, 'link'), 100);
    } catch (error) {
      expect(describeReadFailure(error)).toBe('a symlink (not followed)');
    }
    mkdirSync(join(root, 'real-dir'));
    writeFileSync(join(root, 'real-dir', 'f'), 'ok');
    symlinkSync(join(root, 'real-dir'), join(root, 'dir-link'));
    expect(readRegularFileSync(join(root, 'dir-link', 'f'), 100)?.text).toBe('ok');
  });

  // procfs files report size 0 and have content: the read must go on past what fstat said, bounded.
  it.skipIf(process.platform !== 'linux')('reads past a size fstat under-reports, still bounded by the cap', () => {
    expect(readRegularFileSync('/proc/self/status', 1024 * 1024)?.text).toMatch(/^Name:/);
    expect(() => readRegularFileSync('/proc/self/status', 16)).toThrow(FileTooLargeError);
  });

  // In a child: a blocking open would hang only the child; the test's timeout is the deadline.
  it.skipIf(process.platform === 'win32')('refuses a FIFO at once, without waiting for a writer', { timeout: 60_000 }, async () => {
    const fifo = join(root, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const script = `
      const { readRegularFileSync } = await import(${JSON.stringify(join(HERE, 'read-regular-file.ts'))});
      let outcome;
      try { outcome = readRegularFileSync(${JSON.stringify(fifo)}, 1024); } catch (error) { outcome = error.name; }
      process.stdout.write(JSON.stringify(outcome) + '\\n');`;
    const run = await runModuleSnippet(script, HERE);
    expect(run.code, run.stderr).toBe(0);
    expect(lastJsonLine(run.stdout)).toBe('NotARegularFileError');
  });
});
