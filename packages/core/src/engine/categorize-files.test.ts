import { describe, expect, test } from 'vitest';
import { abs, configWith, context, edit, files, read, teleclaudeConfig, timeline } from './build-test-timeline.ts';
import { categorizeFiles, isDocsOnly } from './categorize-files.ts';
import { composeMessage } from './compose-message.ts';
import { runHeuristics } from './run-heuristics.ts';

const tc = teleclaudeConfig();

/** Run the engine over files the turn edited (after reading them). */
function run(paths: readonly string[]) {
  const calls = paths.flatMap((p) => [read(abs(p)), edit(abs(p))]);
  return runHeuristics(files(paths), timeline(calls), context({ elapsedSeconds: 120 }), tc);
}

const ids = (r: ReturnType<typeof run>) => r.categories.map((c) => c.id);
const actions = (r: ReturnType<typeof run>) => r.requiredActions.map((a) => a.text);

describe('file categorization (seed Task 8, teleclaude preset)', () => {
  test('daemon code maps to restart', () => {
    const r = run(['teleclaude/core/foo.py']);
    expect(ids(r)).toEqual(['daemon-code']);
    expect(r.categories[0]!.label).toBe('daemon code');
    expect(actions(r)[0]).toBe('Run `make restart` then `make status`');
  });

  test('hook runtime no action', () => {
    const r = run(['teleclaude/hooks/receiver.py']);
    expect(ids(r)).toEqual(['hook-runtime']);
    expect(r.categories[0]!.action).toBe('');
    expect(r.categories[0]!.required).toBe(false);
    // The category has no action of its own; only the global follow-ups remain.
    expect(actions(r)).toEqual(['Check logs: `instrukt-ai-logs teleclaude --since 2m`', 'Run targeted tests for changed behavior']);
  });

  test('tui code maps to sigusr2', () => {
    const r = run(['teleclaude/cli/tui/app.py']);
    expect(ids(r)).toEqual(['tui-code']);
    expect(actions(r)[0]).toBe("Send SIGUSR2 to the TUI: its PID from `pgrep -f -- '-m teleclaude.cli.telec$'`, then `kill -USR2 <PID>`");
  });

  test('telec setup maps to init', () => {
    const r = run(['teleclaude/project_setup/hooks.py']);
    expect(ids(r)).toContain('telec-setup');
    expect(actions(r)[0]).toBe('Run `telec init` (setup changed: watchers, hook installers, or git filters)');
  });

  test('agent artifacts maps to restart', () => {
    const r = run(['agents/skills/foo/SKILL.md']);
    expect(ids(r)).toEqual(['agent-artifacts']);
    expect(actions(r)[0]).toMatch(/^Reload artifacts: /);
    expect(actions(r)[0]).toContain('curl -s --unix-socket /tmp/teleclaude-api.sock -X POST');
    expect(actions(r)[0]).toContain('/agent-restart');
  });

  test('config maps to restart', () => {
    const r = run(['config.yml']);
    expect(ids(r)).toEqual(['config']);
    expect(actions(r)[0]).toBe('Run `make restart` then `make status`');
  });

  test('dependencies maps to install', () => {
    const r = run(['pyproject.toml']);
    expect(ids(r)).toEqual(['dependencies']);
    expect(actions(r)[0]).toBe('Install updated dependencies: `uv sync --extra test`');
    expect(tc.categories.find((c) => c.id === 'dependencies')!.evidence).toContain('uv sync');
  });

  test('docs only maps to capture', () => {
    const r = run(['docs/foo.md']);
    expect(r.categories).toEqual([]);
    expect(r.requiredActions).toEqual([]);
    // Capture only: silent by default, the no-changes text when configured.
    expect(composeMessage(r, files(['docs/foo.md']), tc)).toBeUndefined();
    const loud = teleclaudeConfig({ silentWhenNoChanges: false });
    expect(composeMessage(r, files(['docs/foo.md']), loud, { sessionId: 's1' })).toMatch(
      /^\[TeleClaude Checkpoint\] - No code changes detected this turn\. Did you run `telec sync`\?\nCommit if ready\.\n\nResponse policy: /,
    );
  });

  test('empty diff returns capture', () => {
    const r = runHeuristics([], timeline([]), context(), tc);
    expect(r.categories).toEqual([]);
    expect(r.requiredActions).toEqual([]);
    expect(r.isAllClear).toBe(true);
    expect(composeMessage(r, [], tc)).toBeUndefined();
    expect(composeMessage(r, [], teleclaudeConfig({ silentWhenNoChanges: false }))).toMatch(/^\[TeleClaude Checkpoint\] - No code changes detected/);
  });

  test('tests only maps to tests', () => {
    const r = run(['tests/unit/test_foo.py']);
    expect(ids(r)).toEqual(['tests-only']);
    expect(actions(r)).toEqual(['Run targeted tests for changed test files']);
  });

  test('mixed source and tests excludes tests only', () => {
    const r = run(['teleclaude/core/foo.py', 'tests/unit/test_foo.py']);
    expect(ids(r)).toEqual(['daemon-code']);
  });

  test('tests plus docs still requires tests action', () => {
    const r = run(['tests/unit/test_foo.py', 'docs/notes.md']);
    expect(ids(r)).toEqual(['tests-only']);
    expect(actions(r).filter((a) => a.includes('tests'))).toEqual(['Run targeted tests for changed test files']);
  });

  test('a file can belong to several categories, each listed once in table order', () => {
    const r = run(['teleclaude/cli/tui/app.py', 'teleclaude/core/a.py', 'teleclaude/core/b.py']);
    expect(ids(r)).toEqual(['daemon-code', 'tui-code']);
    expect(r.categories[0]!.files).toEqual(['teleclaude/core/a.py', 'teleclaude/core/b.py']);
  });
});

describe('categorizeFiles', () => {
  test('globstar matches top-level files (fnmatch did not)', () => {
    const c = categorizeFiles(['teleclaude/daemon.py', 'teleclaude/constants.py', 'tests/test_x.py'], tc);
    expect(c.matched.map((m) => m.category.id)).toEqual(['daemon-code']);
    expect(c.uncategorized).toEqual(['tests/test_x.py']);
  });

  test('a category match wins over docs patterns', () => {
    const c = categorizeFiles(['requirements-dev.txt', 'agents/x/SKILL.md', 'notes.txt'], tc);
    expect(c.matched.map((m) => m.category.id)).toEqual(['dependencies', 'agent-artifacts']);
    expect(c.docsOnly).toEqual(['notes.txt']);
    expect(isDocsOnly(c)).toBe(false);
  });

  test('an uncategorized non-docs file is changed code, not docs', () => {
    const c = categorizeFiles(['Makefile', 'README.md'], configWith({}));
    expect(c.matched).toEqual([]);
    expect(c.uncategorized).toEqual(['Makefile']);
    expect(c.docsOnly).toEqual(['README.md']);
    expect(isDocsOnly(c)).toBe(false);
  });

  test('exclude globs remove files from a category', () => {
    const c = categorizeFiles(['teleclaude/utils/x.py'], tc);
    expect(c.matched.map((m) => m.category.id)).toEqual(['shared-utilities']);
  });
});
