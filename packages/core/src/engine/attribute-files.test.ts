import { describe, expect, test } from 'vitest';
import type { GitSnapshot } from '../git/changed-file.ts';
import { attributeFiles, turnStartBoundMs } from './attribute-files.ts';
import { changed, context, edit, failed, noTranscript, patch, read, shell, timeline, write } from './build-test-timeline.ts';
import type { ToolCall } from '../timeline/tool-call.ts';

type Repo = Extract<GitSnapshot, { kind: 'repo' }>;
const START = Date.parse('2026-01-01T10:00:00Z');
const BEFORE = START - 60_000;
const AFTER = START + 60_000;

function snapshot(files: Repo['files'], root = '/repo'): Repo {
  return { kind: 'repo', root, head: 'abc', files };
}

function attribute(files: Repo['files'], calls: readonly ToolCall[], options: { cwd?: string; root?: string } = {}) {
  return attributeFiles({
    snapshot: snapshot(files, options.root),
    timeline: timeline(calls, { startedAt: new Date(START).toISOString() }),
    context: context(options.cwd !== undefined ? { cwd: options.cwd } : {}),
  });
}

const summary = (r: ReturnType<typeof attribute>) => r.map((f) => `${f.file.path}:${f.reason}`);
const stale = (path: string) => changed(path, { mtimeMs: BEFORE });

describe('turn attribution', () => {
  test('files the turn edited, wrote or patched', () => {
    const r = attribute([stale('a.py'), stale('b.py'), stale('c.py'), stale('d.py')], [edit('/repo/a.py'), write('b.py'), patch(['c.py'])]);
    expect(summary(r)).toEqual(['a.py:tool-mutation', 'b.py:tool-mutation', 'c.py:tool-mutation']);
  });

  test('dirty files from earlier turns are not this turn', () => {
    expect(attribute([stale('old.py')], [read('/repo/old.py')])).toEqual([]);
  });

  test('read-only commands naming a file do not touch it', () => {
    const calls = [shell('cat old.py'), shell('pytest tests/test_old.py old.py'), shell('git diff old.py'), shell('grep -n x old.py')];
    expect(attribute([stale('old.py'), stale('tests/test_old.py')], calls)).toEqual([]);
  });

  test('mutating commands touch exactly their targets', () => {
    const r = attribute([stale('a.py'), stale('b.py'), stale('log.txt')], [shell("sed -i 's/x/y/' a.py && cat b.py > /dev/null"), shell('make | tee log.txt')]);
    expect(summary(r)).toEqual(['a.py:shell-mutation', 'log.txt:shell-mutation']);
    expect(r[0]!.callIds).toHaveLength(1);
  });

  test('a directory or glob target covers the files under it', () => {
    const r = attribute([stale('build/x.js'), stale('gen/a.pyc'), stale('src/keep.py')], [shell('rm -rf build'), shell('rm gen/*.pyc')]);
    expect(summary(r)).toEqual(['build/x.js:shell-mutation', 'gen/a.pyc:shell-mutation']);
  });

  test('cd inside the command is honoured', () => {
    const r = attribute([stale('packages/core/src/a.ts'), stale('src/a.ts')], [shell("cd packages/core && sed -i 's/a/b/' src/a.ts")]);
    expect(summary(r)).toEqual(['packages/core/src/a.ts:shell-mutation']);
  });

  test('relative tool paths resolve against the session cwd', () => {
    const r = attribute([stale('web/src/a.ts')], [edit('src/a.ts')], { cwd: '/repo/web' });
    expect(summary(r)).toEqual(['web/src/a.ts:tool-mutation']);
  });

  test('failed edits and failed commands do not count; pending commands do', () => {
    const r = attribute([stale('a.py'), stale('b.py'), stale('c.py')], [edit('/repo/a.py', { outcome: 'error' }), failed('touch b.py'), shell('touch c.py', { outcome: 'pending' })]);
    expect(summary(r)).toEqual(['c.py:shell-mutation']);
  });

  test('files modified on disk after the turn started count (formatters, generators)', () => {
    const r = attribute([changed('gen/api.ts', { mtimeMs: AFTER }), stale('old.ts')], [shell('pnpm run codegen')]);
    expect(summary(r)).toEqual(['gen/api.ts:modified-during-turn']);
  });

  test('explicit turnStartMs wins over the timeline', () => {
    const r = attributeFiles({
      snapshot: snapshot([changed('x.ts', { mtimeMs: START + 10 })]),
      timeline: timeline([], { startedAt: new Date(START).toISOString() }),
      context: context(),
      turnStartMs: START + 20,
    });
    expect(r).toEqual([]);
  });

  test('committed-during-turn files are kept, with their touching calls', () => {
    const r = attribute([changed('a.py', { source: 'committed' }), changed('b.py', { source: 'committed' })], [edit('/repo/a.py')]);
    expect(summary(r)).toEqual(['a.py:tool-mutation', 'b.py:committed-during-turn']);
  });

  test('renames match either side', () => {
    const r = attribute([changed('new.py', { status: 'renamed', fromPath: 'old.py', mtimeMs: BEFORE })], [shell('git mv old.py new.py')]);
    expect(summary(r)).toEqual(['new.py:shell-mutation']);
  });

  test('deleted files (no mtime) are attributed by the call that deleted them', () => {
    const r = attribute([changed('gone.py', { status: 'deleted' }), changed('other.py', { status: 'deleted' })], [shell('rm gone.py')]);
    expect(summary(r)).toEqual(['gone.py:shell-mutation']);
  });

  test('paths outside the repository never map inside it', () => {
    expect(attribute([stale('x.py')], [edit('/elsewhere/x.py'), shell('touch ../x.py')])).toEqual([]);
  });

  test('a repository root above the project root', () => {
    const r = attribute([stale('svc/api/main.go')], [edit('main.go')], { cwd: '/mono/svc/api', root: '/mono' });
    expect(summary(r)).toEqual(['svc/api/main.go:tool-mutation']);
  });

  test('without transcript data every uncommitted file counts', () => {
    const r = attributeFiles({ snapshot: snapshot([stale('b.py'), stale('a.py')]), timeline: noTranscript(), context: context() });
    expect(summary(r)).toEqual(['a.py:fallback-all-uncommitted', 'b.py:fallback-all-uncommitted']);
  });

  test('a truncated turn (start beyond the byte cap) keeps the tail calls; mtimes stand in for the unread part', () => {
    // The first call read is at START: the turn began earlier, at an unknown time.
    const calls = [{ ...edit('/repo/tail.py'), timestamp: new Date(START).toISOString() }, shell('make restart')];
    const files = [stale('tail.py'), changed('during.py', { mtimeMs: AFTER }), stale('unread.py'), changed('c.py', { source: 'committed' })];
    const truncated = timeline(calls, { truncated: true });
    const r = attributeFiles({ snapshot: snapshot(files), timeline: truncated, context: context() });
    expect(summary(r)).toEqual(['c.py:committed-during-turn', 'during.py:modified-during-turn', 'tail.py:tool-mutation', 'unread.py:truncated-unread-part']);
    expect(turnStartBoundMs(truncated)).toBe(START);
  });

  test('a complete turn, or a truncated one whose start is known, keeps the usual rules', () => {
    const files = [stale('old.py'), changed('during.py', { mtimeMs: AFTER })];
    const known = timeline([], { startedAt: new Date(START).toISOString(), truncated: true });
    expect(summary(attributeFiles({ snapshot: snapshot(files), timeline: known, context: context() }))).toEqual(['during.py:modified-during-turn']);
    const noStart = timeline([]);
    expect(attributeFiles({ snapshot: snapshot(files), timeline: noStart, context: context() })).toEqual([]);
    expect(turnStartBoundMs(noStart)).toBeUndefined();
  });

  test('output is sorted by path', () => {
    const r = attribute([changed('z.py', { mtimeMs: AFTER }), changed('a.py', { mtimeMs: AFTER })], []);
    expect(r.map((f) => f.file.path)).toEqual(['a.py', 'z.py']);
  });
});

describe('turn attribution on Windows (drive paths, PowerShell commands)', () => {
  const root = 'C:/Users/dev/repo';
  const win = (files: Repo['files'], calls: readonly ToolCall[]) => attribute(files, calls, { root, cwd: 'C:\\Users\\dev\\repo' });
  const ps = (command: string): ToolCall => ({ ...shell(command), rawName: 'PowerShell', dialect: 'powershell' });

  test('Windows tool paths in either slash and case land on git’s repo-relative paths', () => {
    const r = win(
      [stale('src/a.ts'), stale('NOTES.md'), stale('web/b.ts')],
      [edit('C:\\Users\\dev\\repo\\src\\a.ts'), write('c:/users/DEV/repo/NOTES.md'), edit('web\\b.ts')],
    );
    expect(summary(r)).toEqual(['NOTES.md:tool-mutation', 'src/a.ts:tool-mutation', 'web/b.ts:tool-mutation']);
  });

  test('below the root too, paths compare without case, as the file system does', () => {
    const r = win([stale('src/App.ts'), stale('web/dist/x.js')], [edit('C:\\Users\\dev\\repo\\SRC\\app.ts'), ps('rm -r WEB\\Dist')]);
    expect(summary(r)).toEqual(['src/App.ts:tool-mutation', 'web/dist/x.js:shell-mutation']);
    expect(attribute([stale('src/App.ts')], [edit('/repo/SRC/app.ts')])).toEqual([]);
  });

  test('a file a PowerShell cmdlet deleted (no mtime) is the turn’s, another deleted file is not', () => {
    const gone = [changed('src/old.ts', { status: 'deleted' }), changed('src/other.ts', { status: 'deleted' })];
    expect(summary(win(gone, [ps('Remove-Item -Force C:\\Users\\dev\\repo\\src\\old.ts')]))).toEqual(['src/old.ts:shell-mutation']);
  });

  test('a PowerShell command keeps its backslash paths and its Set-Location', () => {
    const r = win([stale('web/dist/x.js'), stale('dist/keep.js')], [ps('Set-Location C:\\Users\\dev\\repo\\web; rm -r dist')]);
    expect(summary(r)).toEqual(['web/dist/x.js:shell-mutation']);
  });
});
