/**
 * Regression tests for the original's bugs (teleclaude.md §7.2–7.3). Each asserts the corrected
 * behaviour; the original produced the opposite result on the same input.
 */
import { describe, expect, test } from 'vitest';
import type { GitSnapshot } from '../git/changed-file.ts';
import type { ToolCall } from '../timeline/tool-call.ts';
import { attributeFiles } from './attribute-files.ts';
import { abs, changed, context, edit, failed, files, patch, read, shell, teleclaudeConfig, timeline, write } from './build-test-timeline.ts';
import { composeMessage } from './compose-message.ts';
import { runHeuristics } from './run-heuristics.ts';

const tc = teleclaudeConfig();
const DAEMON = 'teleclaude/core/foo.py';
const RESTART = 'Run `make restart` then `make status`';

const run = (paths: readonly string[], calls: readonly ToolCall[]) => runHeuristics(files(paths), timeline(calls), context(), tc);
const texts = (r: ReturnType<typeof run>) => r.requiredActions.map((a) => a.text);
const touched = (p: string): ToolCall[] => [read(abs(p)), edit(abs(p))];

describe('regressions of the original', () => {
  test('parallel calls: each result belongs to its own call (no positional pairing)', () => {
    // Claude ran pytest and make status in parallel; pytest failed, make status succeeded. Paired by
    // position, the original saw pytest succeed (test evidence) and make status fail.
    const pytest = failed('pytest tests/unit', 'FAILED tests/unit/test_a.py::test_x\n1 failed', { id: 'toolu_A' });
    const status = shell('make status', { id: 'toolu_B', output: 'daemon: running' });
    const r = run([DAEMON], [...touched(DAEMON), shell('make restart'), pytest, status]);
    expect(texts(r)).toContain('Run targeted tests for changed behavior');
    expect(texts(r)).not.toContain('Run `make status` to verify daemon health');
    const errors = r.observations.filter((o) => o.kind === 'unresolved-error');
    expect(errors.map((o) => o.callIds)).toEqual([['toolu_A']]);
  });

  test('read-only commands do not attribute dirty files to the turn', () => {
    const snapshot: Extract<GitSnapshot, { kind: 'repo' }> = {
      kind: 'repo',
      root: '/repo',
      files: [changed('tests/unit/test_x.py', { mtimeMs: 0 }), changed('teleclaude/core/y.py', { mtimeMs: 0 })],
    };
    const calls = [shell('python -m pytest ./tests/unit/test_x.py teleclaude/core/y.py'), shell('cat teleclaude/core/y.py')];
    const attributed = attributeFiles({ snapshot, timeline: timeline(calls, { startedAt: '2026-01-01T00:00:00Z' }), context: context() });
    expect(attributed).toEqual([]);
  });

  test.each([
    'FOO=1 make restart && make status',
    'timeout 120 make restart && make status',
    'bash -lc "make restart && make status"',
    'make restart | tee restart.log && make status',
    'cd /repo && sudo -E make restart; make status',
  ])('wrapped evidence counts: %s', (command) => {
    const r = run([DAEMON], [...touched(DAEMON), shell(command)]);
    expect(texts(r)).not.toContain(RESTART);
    expect(texts(r)).not.toContain('Run `make status` to verify daemon health');
  });

  test.each(['timeout 60 pytest', '.venv/bin/pytest tests', '.venv/bin/python -m pytest -q', 'env PYTHONPATH=. uv run pytest', 'bash -lc "pytest -x"'])(
    'wrapped test evidence counts: %s',
    (command) => {
      const r = run([DAEMON], [...touched(DAEMON), shell(command)]);
      expect(texts(r)).not.toContain('Run targeted tests for changed behavior');
    },
  );

  test('literal mentions never count as evidence', () => {
    const r = run([DAEMON], [...touched(DAEMON), shell('echo "remember: make restart"'), shell("git commit -m 'needs make restart'")]);
    expect(texts(r)).toContain(RESTART);
    const pip = run(['pyproject.toml'], [...touched('pyproject.toml'), shell('echo "pip install -e ."')]);
    expect(texts(pip)).toContain('Install updated dependencies: `uv sync --extra test`');
  });

  test('top-level files match globstar categories', () => {
    expect(run(['teleclaude/daemon.py'], touched('teleclaude/daemon.py')).categories.map((c) => c.id)).toEqual(['daemon-code']);
    expect(run(['tests/test_x.py'], touched('tests/test_x.py')).categories.map((c) => c.id)).toEqual(['tests-only']);
  });

  test('docs patterns do not swallow category matches', () => {
    for (const p of ['requirements.txt', 'requirements-dev.txt', 'agents/commands/next-work.md', '.agents/skills/x/SKILL.md', 'docs/AGENTS.master.md']) {
      const r = run([p], touched(p));
      expect(r.categories.length, p).toBe(1);
      expect(composeMessage(r, files([p]), tc), p).toBeDefined();
    }
  });

  test('dot-files keep their names (no lstrip("./") mangling)', () => {
    const r = run(['.pre-commit-config.yaml'], touched('.pre-commit-config.yaml'));
    expect(r.categories.map((c) => c.id)).toEqual(['telec-setup']);
    const snapshot: Extract<GitSnapshot, { kind: 'repo' }> = { kind: 'repo', root: '/repo', files: [changed('x.py', { mtimeMs: 0 })] };
    // `../x.py` is outside the repository; the original mapped it to `x.py`.
    expect(attributeFiles({ snapshot, timeline: timeline([shell('touch ../x.py'), edit('../x.py')]), context: context() })).toEqual([]);
  });

  test('a failure named by a relative command is resolved by an absolute edit', () => {
    const r = run([DAEMON], [read(abs(DAEMON)), failed(`python ${DAEMON}`, 'boom'), edit(`/repo/${DAEMON}`)]);
    expect(r.observations.filter((o) => o.kind === 'unresolved-error')).toEqual([]);
  });

  test('a tests-only diff yields one test action', () => {
    const r = run(['tests/unit/test_a.py'], touched('tests/unit/test_a.py'));
    expect(texts(r)).toEqual(['Run targeted tests for changed test files']);
  });

  test('labels are not mangled by capitalisation', () => {
    const r = run(['teleclaude/cli/tui/app.py'], touched('teleclaude/cli/tui/app.py'));
    expect(r.observations.map((o) => o.text)).toContain('TUI code was modified but `pkill -SIGUSR2` was not observed this turn');
    expect(r.observations.map((o) => o.text).join('\n')).not.toContain('Tui code');
  });

  test('edit-without-read covers write, patch and shell edits', () => {
    const existing = files([changed('a.py', { status: 'modified' })]);
    const hygiene = (calls: readonly ToolCall[]) =>
      runHeuristics(existing, timeline(calls), context(), tc).observations.filter((o) => o.kind === 'edit-without-read');
    expect(hygiene([write(abs('a.py'))])).toHaveLength(1);
    expect(hygiene([patch(['a.py'], '*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+b\n*** End Patch')])).toHaveLength(1);
    expect(hygiene([shell("sed -i 's/a/b/' a.py")])).toHaveLength(1);
    expect(hygiene([shell('cat a.py'), shell("sed -i 's/a/b/' a.py")])).toHaveLength(0);
  });

  test('errors printed at the end of long output are recognised', () => {
    const output = `${'test_module.py::test_case PASSED\n'.repeat(400)}Traceback (most recent call last):\n  File "x.py", line 1\nImportError: nope\n`;
    const r = run([DAEMON], [...touched(DAEMON), failed('python -m teleclaude.daemon --check', output)]);
    expect(r.observations.map((o) => o.text)).toContain('Python errors remain unresolved — verify they are fixed: `python -m teleclaude.daemon --check` (call #3)');
  });

  test('a restart before the last daemon edit is stale', () => {
    const r = run([DAEMON], [read(abs(DAEMON)), edit(abs(DAEMON)), shell('make restart && make status'), edit(abs(DAEMON))]);
    expect(texts(r)).toContain(RESTART);
  });

  test('no transcript: file-based actions still reach the agent', () => {
    const f = files([DAEMON], 'fallback-all-uncommitted');
    const r = runHeuristics(f, timeline([], { hasData: false }), context(), tc);
    expect(composeMessage(r, f, tc)).toContain('1. Run `make restart` then `make status`');
  });
});
