import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ToolCall } from '../timeline/tool-call.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import { abs, changed, configWith, context, edit, files, patch, read, shell, teleclaudeConfig, timeline, write } from './build-test-timeline.ts';
import { area, BLAST_RADIUS_OBSERVATION, checkBlastRadius, checkEditWithoutRead, EDIT_WITHOUT_READ_OBSERVATION } from './check-edit-hygiene.ts';
import { runHeuristics } from './run-heuristics.ts';
import { computeTimelineFacts } from './timeline-facts.ts';

const tc = teleclaudeConfig();
const base = { root: '/repo', cwd: '/repo' };

function hygiene(calls: readonly ToolCall[], changedFiles = files(['a.py']), options: Partial<TurnTimeline> = {}, config = tc): string[] {
  return checkEditWithoutRead(computeTimelineFacts(calls, base), timeline(calls, options), changedFiles, config).map((o) => o.text);
}

describe('edit hygiene (seed Task 8)', () => {
  test('edit without read emits observation', () => {
    expect(hygiene([edit(abs('a.py'))])).toEqual([EDIT_WITHOUT_READ_OBSERVATION]);
  });

  test('edit with read suppressed', () => {
    expect(hygiene([read(abs('a.py')), edit(abs('a.py'))])).toEqual([]);
  });

  test('write without read not flagged', () => {
    // A new file: nothing to read first.
    expect(hygiene([write(abs('new.py'))], files([changed('new.py', { status: 'untracked' })]))).toEqual([]);
  });

  test('wide blast radius emits observation', () => {
    const f = files(['api/a.py', 'web/b.ts', 'infra/c.tf', 'docs/d.md']);
    expect(checkBlastRadius(f, tc).map((o) => o.text)).toEqual([BLAST_RADIUS_OBSERVATION]);
  });

  test('narrow blast radius suppressed', () => {
    expect(checkBlastRadius(files(['api/a.py', 'web/b.ts', 'README.md', 'setup.py']), tc)).toEqual([]);
  });
});

describe('edit without read', () => {
  test('a read through a different spelling of the path counts', () => {
    expect(hygiene([read('a.py'), edit('/repo/./a.py')])).toEqual([]);
    expect(hygiene([read('/repo/src/../a.py'), edit('a.py')])).toEqual([]);
  });

  test('shell reads count (Codex reads through the shell)', () => {
    for (const cmd of ["sed -n '1,200p' a.py", 'cat a.py', 'nl -ba a.py | sed -n 1,80p', 'head -50 a.py', 'rg -n "def main" a.py']) {
      expect(hygiene([shell(cmd), patch(['a.py'], '*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch')]), cmd).toEqual([]);
    }
  });

  test('a read inside a cd-ed directory resolves against it', () => {
    expect(hygiene([shell('cd src && cat a.py'), edit('/repo/src/a.py')], files(['src/a.py']))).toEqual([]);
    expect(hygiene([shell('cd src && cat a.py'), edit('/repo/a.py')])).toEqual([EDIT_WITHOUT_READ_OBSERVATION]);
  });

  test('patch updates without a read are flagged; added files are not', () => {
    const update = '*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch';
    const add = '*** Begin Patch\n*** Add File: b.py\n+print(1)\n*** End Patch';
    expect(hygiene([patch(['a.py'], update)])).toEqual([EDIT_WITHOUT_READ_OBSERVATION]);
    expect(hygiene([patch(['b.py'], add)], files([changed('b.py', { status: 'untracked' })]))).toEqual([]);
  });

  test('sed -i and perl -pi without a read are flagged', () => {
    expect(hygiene([shell("sed -i 's/a/b/' a.py")])).toEqual([EDIT_WITHOUT_READ_OBSERVATION]);
    expect(hygiene([shell("perl -pi -e 's/a/b/' a.py")])).toEqual([EDIT_WITHOUT_READ_OBSERVATION]);
    expect(hygiene([shell('cat a.py'), shell("sed -i 's/a/b/' a.py")])).toEqual([]);
  });

  test('overwriting a tracked file without reading it is flagged', () => {
    expect(hygiene([write(abs('a.py'))], files([changed('a.py', { status: 'modified' })]))).toEqual([EDIT_WITHOUT_READ_OBSERVATION]);
    expect(hygiene([shell("cat > a.py <<'EOF'\nprint(1)\nEOF")], files([changed('a.py', { status: 'modified' })]))).toEqual([
      EDIT_WITHOUT_READ_OBSERVATION,
    ]);
  });

  test('files the turn created or wrote count as read', () => {
    const f = files([changed('new.py', { status: 'untracked' })]);
    expect(hygiene([write(abs('new.py')), edit(abs('new.py'))], f)).toEqual([]);
    expect(hygiene([shell('touch new.py'), edit(abs('new.py'))], f)).toEqual([]);
    expect(hygiene([shell("cat > new.py <<'EOF'\nx = 1\nEOF"), edit(abs('new.py'))], f)).toEqual([]);
  });

  test('failed edits are not flagged (nothing changed)', () => {
    expect(hygiene([edit(abs('a.py'), { outcome: 'error' })])).toEqual([]);
  });

  test('skipped on a truncated timeline or without transcript data', () => {
    expect(hygiene([edit(abs('a.py'))], files(['a.py']), { truncated: true })).toEqual([]);
    expect(hygiene([edit(abs('a.py'))], files(['a.py']), { hasData: false })).toEqual([]);
  });

  test('can be turned off', () => {
    expect(hygiene([edit(abs('a.py'))], files(['a.py']), {}, configWith({ hygiene: { editWithoutRead: false } }))).toEqual([]);
  });

  test('one observation for many files, naming every offending call', () => {
    const calls = [edit(abs('a.py')), edit(abs('b.py'))];
    const [o] = checkEditWithoutRead(computeTimelineFacts(calls, base), timeline(calls), files(['a.py', 'b.py']), tc);
    expect(o!.callIds).toEqual([calls[0]!.id, calls[1]!.id]);
  });
});

describe('blast radius', () => {
  test('threshold is configurable and 0 disables', () => {
    const f = files(['a/x', 'b/x', 'c/x']);
    expect(checkBlastRadius(f, configWith({ hygiene: { blastRadius: 3 } }))).toHaveLength(1);
    expect(checkBlastRadius(f, configWith({ hygiene: { blastRadius: 0 } }))).toEqual([]);
  });

  test('monorepo packages are separate areas', () => {
    expect(area('packages/core/src/a.ts')).toBe('packages/core');
    expect(area('src/a.ts')).toBe('src');
    expect(area('README.md')).toBeUndefined();
    expect(area('packages/a.ts')).toBe('packages');
    expect(area('apps/web/')).toBe('apps/web');
    // The rule as first written (split on every slash) and the one-pass version agree on any path.
    const bySplit = (path: string): string | undefined => {
      const parts = path.split('/');
      if (parts.length < 2) return undefined;
      return ['packages', 'apps', 'crates', 'libs', 'services', 'plugins', 'modules'].includes(parts[0]!) && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
    };
    const segment = fc.constantFrom('packages', 'apps', 'src', 'a.ts', '', 'x');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (parts) => {
        expect(area(parts.join('/'))).toBe(bySplit(parts.join('/')));
      }),
    );
    const f = files(['packages/core/a.ts', 'packages/cli/b.ts', 'packages/web/c.ts', 'apps/site/d.ts']);
    expect(checkBlastRadius(f, configWith({}))).toHaveLength(1);
  });

  test('runs from git alone (no transcript needed)', () => {
    const r = runHeuristics(files(['a/x.py', 'b/x.py', 'c/x.py', 'd/x.py'], 'fallback-all-uncommitted'), timeline([], { hasData: false }), context(), configWith({}));
    expect(r.observations.map((o) => o.text)).toEqual([BLAST_RADIUS_OBSERVATION]);
  });
});

test('touching a tracked file does not count as reading it', () => {
  const calls = [shell('touch a.py'), shell("sed -i 's/a/b/' a.py")];
  expect(checkEditWithoutRead(computeTimelineFacts(calls, base), timeline(calls), files([changed('a.py', { status: 'modified' })]), tc)).toHaveLength(1);
});

describe('edit hygiene on a Windows repository', () => {
  const win = { root: 'C:/Users/dev/repo', cwd: 'C:\\Users\\dev\\repo' };
  const check = (calls: readonly ToolCall[], root = win) =>
    checkEditWithoutRead(computeTimelineFacts(calls, root), timeline(calls), files(['src/app.ts']), tc).map((o) => o.text);

  test('a read and an edit of one file in different spellings and case is a read before the edit', () => {
    expect(check([read('C:\\Users\\dev\\repo\\SRC\\App.ts'), edit('c:/users/dev/repo/src/app.ts')])).toEqual([]);
    expect(check([read('src\\app.ts'), edit('C:\\Users\\dev\\repo\\src\\app.ts')])).toEqual([]);
    // Another file is still another file, and a POSIX repository still compares exactly.
    expect(check([read('C:\\Users\\dev\\repo\\src\\other.ts'), edit('C:\\Users\\dev\\repo\\src\\app.ts')])).toEqual([EDIT_WITHOUT_READ_OBSERVATION]);
    expect(check([read('/repo/SRC/App.ts'), edit('/repo/src/app.ts')], base)).toEqual([EDIT_WITHOUT_READ_OBSERVATION]);
  });
});
