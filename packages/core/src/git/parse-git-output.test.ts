import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { parseLogNameStatus } from './parse-log-name-status.ts';
import { parseStatusV2, statusFromXY } from './parse-status-v2.ts';

const z = (...records: (string | Buffer)[]): Buffer =>
  Buffer.concat(records.flatMap((r) => [typeof r === 'string' ? Buffer.from(r, 'utf8') : r, Buffer.from([0])]));

const H = 'a'.repeat(40);
const modes = '100644 100644 100644';

describe('parseStatusV2', () => {
  it('parses headers and every record type, keeping paths byte-exact', () => {
    const out = z(
      `# branch.oid ${H}`,
      '# branch.head feature/x y',
      '# branch.upstream origin/feature',
      `1 .M N... ${modes} ${H} ${H} dir/with space.txt`,
      `1 A. N... 000000 100644 100644 ${'0'.repeat(40)} ${H} new`,
      `1 D. N... 100644 000000 000000 ${H} ${'0'.repeat(40)} removed`,
      `1 .T N... ${modes} ${H} ${H} link`,
      `2 R. N... ${modes} ${H} ${H} R87 to name`,
      'from name',
      `2 C. N... ${modes} ${H} ${H} C100 copy`,
      'orig',
      `u UU N... ${modes} 100644 ${H} ${H} ${H} conflict.txt`,
      '? untracked\nwith newline',
      '! ignored.log',
      'x future-record-type',
    );
    const parsed = parseStatusV2(out);
    expect(parsed.head).toBe(H);
    expect(parsed.branchName).toBe('feature/x y');
    expect(parsed.entries.map((e) => [e.status, e.path.toString(), e.fromPath?.toString()])).toEqual([
      ['modified', 'dir/with space.txt', undefined],
      ['added', 'new', undefined],
      ['deleted', 'removed', undefined],
      ['type-changed', 'link', undefined],
      ['renamed', 'to name', 'from name'],
      ['copied', 'copy', 'orig'],
      ['unmerged', 'conflict.txt', undefined],
      ['untracked', 'untracked\nwith newline', undefined],
    ]);
  });

  it('reports no head for (initial) and no branch for (detached)', () => {
    expect(parseStatusV2(z('# branch.oid (initial)', '# branch.head main'))).toEqual({ branchName: 'main', entries: [] });
    expect(parseStatusV2(z(`# branch.oid ${H}`, '# branch.head (detached)'))).toEqual({ head: H, entries: [] });
  });

  it('keeps non-UTF-8 bytes of a path', () => {
    const name = Buffer.from([0x63, 0xe9, 0xff]);
    const parsed = parseStatusV2(z(Buffer.concat([Buffer.from('? '), name])));
    expect(parsed.entries[0]?.path).toEqual(name);
  });

  it('tolerates truncated output (no final NUL, a rename without its original path)', () => {
    const out = Buffer.concat([z(`1 .M N... ${modes} ${H} ${H} a`), Buffer.from(`2 R. N... ${modes} ${H} ${H} R100 b`)]);
    expect(parseStatusV2(out).entries.map((e) => [e.status, e.path.toString(), e.fromPath])).toEqual([
      ['modified', 'a', undefined],
      ['renamed', 'b', undefined],
    ]);
  });

  it('any well-formed output parses back to its entries, paths byte for byte', () => {
    // Path bytes: anything but NUL, spaces and newlines included, often non-UTF-8.
    const path = fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => Buffer.from(bytes.map((b) => (b === 0 ? 0x20 : b))));
    const xy = fc.constantFrom('.M', 'M.', 'MM', 'A.', 'AM', 'AD', '.D', 'D.', '.T', 'T.', 'R.', 'C.');
    const entry = fc.oneof(
      fc.record({ kind: fc.constant('1' as const), xy, path }),
      fc.record({ kind: fc.constant('2' as const), xy, path, from: path, copy: fc.boolean(), score: fc.integer({ min: 0, max: 100 }) }),
      fc.record({ kind: fc.constant('u' as const), path }),
      fc.record({ kind: fc.constant('?' as const), path }),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (entries) => {
        const records = entries.flatMap((e): Buffer[] => {
          switch (e.kind) {
            case '1':
              return [Buffer.concat([Buffer.from(`1 ${e.xy} N... ${modes} ${H} ${H} `), e.path])];
            case '2':
              return [Buffer.concat([Buffer.from(`2 ${e.xy} N... ${modes} ${H} ${H} ${e.copy ? 'C' : 'R'}${e.score} `), e.path]), e.from];
            case 'u':
              return [Buffer.concat([Buffer.from(`u UU N... ${modes} 100644 ${H} ${H} ${H} `), e.path])];
            case '?':
              return [Buffer.concat([Buffer.from('? '), e.path])];
          }
        });
        const parsed = parseStatusV2(z(`# branch.oid ${H}`, ...records));
        expect(parsed.entries).toEqual(
          entries.map((e) =>
            e.kind === '1'
              ? { path: e.path, status: statusFromXY(e.xy) }
              : e.kind === '2'
                ? { path: e.path, status: e.copy ? 'copied' : 'renamed', fromPath: e.from }
                : { path: e.path, status: e.kind === 'u' ? 'unmerged' : 'untracked' },
          ),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('reads ordinary records of SHA-256 repositories and records with unexpected field widths', () => {
    const H256 = 'b'.repeat(64);
    const out = z(
      `1 .M N... ${modes} ${H256} ${H256} sha 256.ts`,
      `1 A. N... ${modes} ${H} ${H} sha1 name.ts`,
      // Wider modes than git prints, a short object name: split on spaces instead.
      `1 .D N... 1000644 100644 100644 abc ${H} wide fields.ts`,
      `1 .M N... ${modes} ${H} ${H} `,
    );
    expect(parseStatusV2(out).entries.map((e) => [e.status, e.path.toString()])).toEqual([
      ['modified', 'sha 256.ts'],
      ['added', 'sha1 name.ts'],
      ['deleted', 'wide fields.ts'],
    ]);
  });

  it('costs one native search per ordinary record (the hook parses cold, where each call is ~1 µs)', () => {
    const records = Array.from({ length: 1000 }, (_, i) => `1 .M N... ${modes} ${H} ${H} src/file-${i}.ts`);
    const out = z(`# branch.oid ${H}`, '# branch.head main', ...records);
    const indexOf = vi.spyOn(Buffer.prototype, 'indexOf');
    try {
      expect(parseStatusV2(out).entries).toHaveLength(1000);
      expect(indexOf.mock.calls.length).toBeLessThanOrEqual(1000 + 3);
    } finally {
      indexOf.mockRestore();
    }
  });

  it('maps XY codes relative to HEAD', () => {
    expect(statusFromXY('.M')).toBe('modified');
    expect(statusFromXY('M.')).toBe('modified');
    expect(statusFromXY('MM')).toBe('modified');
    expect(statusFromXY('A.')).toBe('added');
    expect(statusFromXY('AM')).toBe('added');
    expect(statusFromXY('AD')).toBe('deleted');
    expect(statusFromXY('.D')).toBe('deleted');
    expect(statusFromXY('D.')).toBe('deleted');
    expect(statusFromXY('.T')).toBe('type-changed');
    expect(statusFromXY('UU')).toBe('unmerged');
  });
});

describe('parseLogNameStatus', () => {
  it('parses commits, renames, copies and names that start with a newline', () => {
    const out = Buffer.concat([
      z(`\x01${H} 1700000100`, '\nM', 'src/a.ts', 'R100', 'old name', 'new name', 'A', '\nstarts-with-newline'),
      z(`\x01${'b'.repeat(40)} 1700000050`), // a commit without file changes
      z(`\x01${'c'.repeat(40)} 1700000000`, '\nC75', 'orig', 'copy', 'D', 'gone', 'T', 'link'),
    ]);
    const commits = parseLogNameStatus(out);
    expect(commits.map((c) => [c.oid[0], c.committedAtSec, c.files.length])).toEqual([
      ['a', 1700000100, 3],
      ['b', 1700000050, 0],
      ['c', 1700000000, 3],
    ]);
    expect(commits[0]?.files.map((f) => [f.status, f.path.toString(), f.fromPath?.toString()])).toEqual([
      ['modified', 'src/a.ts', undefined],
      ['renamed', 'new name', 'old name'],
      ['added', '\nstarts-with-newline', undefined],
    ]);
    expect(commits[2]?.files.map((f) => [f.status, f.path.toString(), f.fromPath?.toString()])).toEqual([
      ['copied', 'copy', 'orig'],
      ['deleted', 'gone', undefined],
      ['type-changed', 'link', undefined],
    ]);
  });

  it('returns nothing for empty output and stops cleanly on truncation', () => {
    expect(parseLogNameStatus(Buffer.alloc(0))).toEqual([]);
    const truncated = Buffer.concat([z(`\x01${H} 1`, '\nM', 'a'), Buffer.from('R100\0only-old')]);
    expect(parseLogNameStatus(truncated)[0]?.files.map((f) => f.path.toString())).toEqual(['a']);
  });
});
