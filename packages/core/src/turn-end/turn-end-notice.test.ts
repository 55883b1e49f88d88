import { describe, expect, it } from 'vitest';
import type { LoadedConfig } from '../config/load-config.ts';
import { resolveConfig } from '../config/resolve-config.ts';
import { emptyTimeline } from '../timeline/turn-timeline.ts';
import { configNotices, noticeDigest, transcriptNotice } from './turn-end-notice.ts';

const loaded = (diagnostics: string[], untrusted?: LoadedConfig['untrusted']): LoadedConfig => ({
  config: resolveConfig([]),
  diagnostics,
  projectRoot: '/repo',
  ...(untrusted === undefined ? {} : { untrusted }),
});

describe('configNotices', () => {
  it('an invalid file: one notice quoting its first problem with the header, counting the rest, naming what to run', () => {
    const [notice, ...rest] = configNotices(
      loaded([
        '/repo/.agent-checkpoint.json: invalid configuration, file ignored:',
        '/repo/.agent-checkpoint.json: line 3: unexpected "}"',
        '/repo/.agent-checkpoint.json: categories.0.include: expected an array',
      ]),
    );
    expect(rest).toEqual([]);
    expect(notice).toEqual({
      kind: 'config-broken',
      text:
        'agent-checkpoint: configuration problem: /repo/.agent-checkpoint.json: invalid configuration, file ignored: line 3: unexpected "}" (+1 more); ' +
        'that part is ignored. Fix it; `agent-checkpoint-hook doctor` lists every problem.',
    });
  });

  it('an untrusted file: a notice naming the ignored keys and `trust`, and no broken-config notice for its own diagnostic', () => {
    const diagnostic = '/repo/.agent-checkpoint.json: not trusted; ignored: runTests.command';
    const notices = configNotices(loaded([diagnostic], { path: '/repo/.agent-checkpoint.json', ignoredKeys: ['runTests.command'], state: 'untrusted', diagnostic }));
    expect(notices).toEqual([
      {
        kind: 'config-untrusted',
        text: 'agent-checkpoint: /repo/.agent-checkpoint.json is not trusted, so its runTests.command is ignored. Review the file, then run `agent-checkpoint-hook trust` in this project.',
      },
    ]);
  });

  it('a clean configuration has no notice; a long detail is clipped to one line', () => {
    expect(configNotices(loaded([]))).toEqual([]);
    const [notice] = configNotices(loaded([`/x: ${'y'.repeat(1000)}\nsecond line`]));
    expect(notice!.text.length).toBeLessThan(400);
    expect(notice!.text).not.toContain('\n');
  });
});

describe('transcriptNotice', () => {
  it('maps reader warnings that a person should know about, and ignores routine ones', () => {
    const of = (code: string, level: 'warn' | 'info' = 'warn') => transcriptNotice(emptyTimeline('codex', { level, code, message: `m-${code}` }))?.kind;
    expect(of('not-a-file')).toBe('transcript-unreadable');
    expect(of('read-error')).toBe('transcript-unreadable');
    expect(of('reader-failed')).toBe('transcript-unreadable');
    expect(of('unknown-format')).toBe('transcript-unknown-format');
    expect(of('unsupported-format')).toBe('transcript-unknown-format');
    expect(of('missing-file')).toBeUndefined();
    expect(of('empty-file')).toBeUndefined();
    expect(of('unknown-format', 'info')).toBeUndefined();
    expect(transcriptNotice(undefined)).toBeUndefined();
  });
});

describe('noticeDigest', () => {
  it('is stable for the same notice and differs by kind and by text', () => {
    const a = { kind: 'config-broken', text: 'x' } as const;
    expect(noticeDigest(a)).toBe(noticeDigest({ ...a }));
    expect(noticeDigest(a)).not.toBe(noticeDigest({ ...a, text: 'y' }));
    expect(noticeDigest(a)).not.toBe(noticeDigest({ kind: 'config-untrusted', text: 'x' }));
    expect(noticeDigest(a).length).toBeLessThanOrEqual(80);
  });
});
