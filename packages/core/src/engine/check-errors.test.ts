import { describe, expect, test } from 'vitest';
import type { ToolCall } from '../timeline/tool-call.ts';
import { abs, configWith, context, edit, failed, files, patch, read, shell, teleclaudeConfig, timeline } from './build-test-timeline.ts';
import { checkErrors, commandKey, FAILED_EDIT_OBSERVATION, GENERIC_ERROR_OBSERVATION } from './check-errors.ts';
import { runHeuristics } from './run-heuristics.ts';
import { computeTimelineFacts } from './timeline-facts.ts';
import { parseShellCommand } from '../shell/parse-shell-command.ts';

const tc = teleclaudeConfig();
const base = { root: '/repo', cwd: '/repo' };

function errors(calls: readonly ToolCall[], config = tc): string[] {
  return checkErrors(computeTimelineFacts(calls, base), config).map((o) => o.text);
}

const TRACEBACK = 'Traceback (most recent call last):\n  File "/repo/teleclaude/core/foo.py", line 3\nValueError: boom';

describe('error state — layer 1 gate (seed Task 8)', () => {
  test('is_error false never triggers observation', () => {
    expect(errors([shell('python -m teleclaude.cli status', { output: TRACEBACK })])).toEqual([]);
  });

  test('is_error true unresolved emits observation', () => {
    expect(errors([failed('python scripts/migrate.py', 'boom')])).toEqual([`${GENERIC_ERROR_OBSERVATION}: \`python scripts/migrate.py\` (call #1)`]);
  });

  test('is_error resolved by bash retry suppressed', () => {
    expect(errors([failed('python scripts/migrate.py', 'boom'), shell('python scripts/migrate.py --dry-run')])).toEqual([]);
  });

  test('is_error resolved by edit suppressed', () => {
    expect(errors([failed('python teleclaude/core/foo.py', TRACEBACK), edit(abs('teleclaude/core/foo.py'))])).toEqual([]);
  });

  test('is_error resolved by command rerun suppressed', () => {
    expect(errors([failed('pytest tests/unit -q', '1 failed'), shell('pytest tests/unit -q')])).toEqual([]);
  });

  test('multiple errors only last unresolved fires', () => {
    const calls = [failed('pytest tests/unit/test_a.py', '1 failed'), shell('pytest tests/unit/test_a.py'), failed('make lint', 'E501 line too long')];
    const result = checkErrors(computeTimelineFacts(calls, base), tc);
    expect(result).toHaveLength(1);
    expect(result[0]!.callIds).toEqual([calls[2]!.id]);
  });

  test('error not resolved by different pytest command', () => {
    expect(errors([failed('pytest tests/a.py', 'FAILED tests/a.py::test_x'), shell('pytest tests/b.py')])).toEqual([
      'Test failures remain — re-run tests after fixes: `pytest tests/a.py` (call #1)',
    ]);
  });

  test('duplicate failed commands keep later unresolved error', () => {
    const calls = [failed('pytest -x', 'x'), failed('pytest -x', 'x')];
    const result = checkErrors(computeTimelineFacts(calls, base), tc);
    expect(result).toHaveLength(1);
    expect(result[0]!.callIds).toEqual([calls[1]!.id]);
  });

  test('run heuristics dedupes duplicate error observations', () => {
    const calls = [failed('make lint', 'bad'), failed('make typecheck', 'bad')];
    const result = checkErrors(computeTimelineFacts(calls, base), tc);
    expect(result).toHaveLength(1);
    expect(result[0]!.callIds).toEqual([calls[0]!.id, calls[1]!.id]);
  });

  test('pending calls are neither errors nor evidence', () => {
    expect(errors([shell('pytest', { outcome: 'pending' })])).toEqual([]);
  });

  test('failed reads and searches are exploration, not errors', () => {
    expect(errors([read('/repo/missing.py', { outcome: 'error', output: 'File does not exist.' })])).toEqual([]);
  });

  test('a failed edit not retried is reported; a retry resolves it', () => {
    expect(errors([edit(abs('a.py'), { outcome: 'error', output: 'String to replace not found' })])).toEqual([`${FAILED_EDIT_OBSERVATION}: \`a.py\` (call #1)`]);
    expect(errors([edit(abs('a.py'), { outcome: 'error' }), edit('a.py')])).toEqual([]);
  });

  test('search no matches exit code is non actionable', () => {
    expect(errors([failed('rg -n "TODO" src', '')])).toEqual([]);
    expect(errors([failed('grep -rn foo teleclaude', 'Exit code 1')])).toEqual([]);
    expect(errors([failed('git grep -n needle', '')])).toEqual([]);
    expect(errors([failed('cd src && rg needle', '')])).toEqual([]);
  });

  test('uv run rg is non actionable', () => {
    expect(errors([failed('uv run rg needle', '')])).toEqual([]);
  });

  test('search error exit code with path issue is actionable', () => {
    expect(errors([failed('rg needle nope/', 'nope/: No such file or directory (os error 2)')])).toEqual([`${GENERIC_ERROR_OBSERVATION}: \`rg needle nope/\` (call #1)`]);
    expect(errors([failed('rg needle', 'regex parse error', { exitCode: 2 })])).toEqual([`${GENERIC_ERROR_OBSERVATION}: \`rg needle\` (call #1)`]);
  });
});

describe('error state — layer 2 enrichment (seed Task 8)', () => {
  test('enrichment traceback pattern', () => {
    expect(errors([failed('python -m teleclaude.daemon', TRACEBACK)])).toEqual(['Python errors remain unresolved — verify they are fixed: `python -m teleclaude.daemon` (call #1)']);
  });

  test('enrichment syntax error', () => {
    expect(errors([failed('python x.py', '  File "x.py", line 1\n    def (\nSyntaxError: invalid syntax')])).toEqual([
      'Syntax errors remain — verify the code is valid: `python x.py` (call #1)',
    ]);
  });

  test('enrichment import error', () => {
    expect(errors([failed('python x.py', "ImportError: cannot import name 'y'")])).toEqual([
      'Import errors remain — check dependencies or module paths: `python x.py` (call #1)',
    ]);
    expect(errors([failed('python x.py', "ModuleNotFoundError: No module named 'z'")])).toEqual([
      'Import errors remain — check dependencies or module paths: `python x.py` (call #1)',
    ]);
  });

  test('enrichment pytest failure', () => {
    expect(errors([failed('pytest tests/unit', 'FAILED tests/unit/test_a.py::test_x - AssertionError\n1 failed, 3 passed')])).toEqual([
      'Test failures remain — re-run tests after fixes: `pytest tests/unit` (call #1)',
    ]);
  });

  test('enrichment unknown error', () => {
    expect(errors([failed('make deploy', 'something odd happened')])).toEqual(['A command returned errors — verify the issue is resolved: `make deploy` (call #1)']);
  });

  test('enrichment does not treat test mentions as test commands', () => {
    expect(errors([failed('echo pytest tests/unit && false', '')])).toEqual([`${GENERIC_ERROR_OBSERVATION}: \`echo pytest tests/unit && false\` (call #1)`]);
  });

  test('enrichment only fires when layer1 fires', () => {
    expect(errors([shell('grep -rn SyntaxError logs/', { output: 'logs/a.log: SyntaxError: bad' })])).toEqual([]);
  });

  test('enrichment reads the tail of long output', () => {
    const long = `${'vite v5 building for production... transforming\n'.repeat(2000)}src/a.ts(3,1): error TS2304: Cannot find name 'x'.\n`;
    expect(errors([failed('pnpm build', long)], configWith({}))).toEqual(['TypeScript errors remain — type-check again after fixing them: `pnpm build` (call #1)']);
  });

  test('default patterns cover node, rust and go', () => {
    const cfg = configWith({});
    expect(errors([failed('pnpm exec tsc --noEmit', "src/a.ts(3,1): error TS2304: Cannot find name 'x'.")], cfg)).toEqual([
      'TypeScript errors remain — type-check again after fixing them: `pnpm exec tsc --noEmit` (call #1)',
    ]);
    expect(errors([failed('node dist/main.js', "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod'")], cfg)).toEqual([
      'Module resolution errors remain — check imports and installed dependencies: `node dist/main.js` (call #1)',
    ]);
    expect(errors([failed('node x.js', 'TypeError: a.b is not a function\n    at main (x.js:3:5)')], cfg)).toEqual([
      'Runtime errors remain — verify they are fixed: `node x.js` (call #1)',
    ]);
    expect(errors([failed('cargo build', 'error[E0425]: cannot find value `x` in this scope')], cfg)).toEqual([
      'Rust compile errors remain — build again after fixing them: `cargo build` (call #1)',
    ]);
    expect(errors([failed('cargo run', "thread 'main' panicked at src/main.rs:3:5:")], cfg)).toEqual([
      'A Rust panic remains unresolved — verify it is fixed: `cargo run` (call #1)',
    ]);
    expect(errors([failed('go run .', 'panic: runtime error: index out of range')], cfg)).toEqual(['A Go panic remains unresolved — verify it is fixed: `go run .` (call #1)']);
    expect(errors([failed('go test ./...', '--- FAIL: TestX (0.00s)\nFAIL\tpkg\t0.01s')], cfg)).toEqual([
      'Test failures remain — re-run the tests after fixing them: `go test ./...` (call #1)',
    ]);
    expect(errors([failed('pnpm test', ' Test Files  1 failed | 3 passed (4)\n      Tests  2 failed | 10 passed (12)')], cfg)).toEqual([
      'Test failures remain — re-run the tests after fixing them: `pnpm test` (call #1)',
    ]);
    expect(errors([failed('cargo test', 'test result: FAILED. 1 passed; 1 failed')], cfg)).toEqual([
      'Test failures remain — re-run the tests after fixing them: `cargo test` (call #1)',
    ]);
  });

  test('test-runner patterns apply only to test commands', () => {
    const cfg = configWith({});
    expect(errors([failed('./deploy.sh', 'FAILED to connect\n2 failed uploads')], cfg)).toEqual([`${GENERIC_ERROR_OBSERVATION}: \`./deploy.sh\` (call #1)`]);
  });

  test('project patterns are tried before the built-in ones', () => {
    const cfg = configWith({ errorPatterns: [{ id: 'db', match: '/connection refused/i', message: 'The database is not reachable — start it and re-run' }] });
    expect(errors([failed('pytest', 'E   Connection refused\n1 failed')], cfg)).toEqual(['The database is not reachable — start it and re-run: `pytest` (call #1)']);
  });
});

describe('error state — workflow scenarios (seed Task 8)', () => {
  const FOO = 'teleclaude/core/foo.py';
  const run = (calls: readonly ToolCall[]) => runHeuristics(files([FOO]), timeline(calls), context(), tc);
  const errorObservations = (calls: readonly ToolCall[]) => run(calls).observations.filter((o) => o.kind === 'unresolved-error');

  // oxlint-disable-next-line vitest/valid-title -- 'test' is the subject (a test → fix → test cycle), not a repeated prefix
  test('test fix test cycle is silent', () => {
    const calls = [failed('pytest tests/unit/test_foo.py', 'FAILED tests/unit/test_foo.py::test_a'), read(abs(FOO)), edit(abs(FOO)), shell('pytest tests/unit/test_foo.py')];
    expect(errorObservations(calls)).toEqual([]);
    expect(run(calls).requiredActions.map((a) => a.text)).not.toContain('Run targeted tests for changed behavior');
  });

  test('log check with daemon tracebacks is silent', () => {
    const calls = [shell('instrukt-ai-logs teleclaude --since 5m', { output: `${TRACEBACK}\n${TRACEBACK}` })];
    expect(errorObservations(calls)).toEqual([]);
  });

  test('make status with warnings is silent', () => {
    expect(errorObservations([shell('make status', { output: 'WARNING: slow response\nDaemon: running' })])).toEqual([]);
  });

  test('partial fix still fires', () => {
    const calls = [
      failed('pytest tests/unit', 'FAILED a\nFAILED b\nFAILED c\n3 failed'),
      read(abs(FOO)),
      edit(abs(FOO)),
      failed('pytest tests/unit', 'FAILED c\n1 failed'),
    ];
    const found = errorObservations(calls);
    expect(found.map((o) => o.text)).toEqual(['Test failures remain — re-run tests after fixes: `pytest tests/unit` (call #4)']);
    expect(found[0]!.callIds).toEqual([calls[3]!.id]);
  });
});

describe('commandKey', () => {
  test('ignores wrappers, cd prefixes and output filters', () => {
    const key = (c: string) => commandKey(parseShellCommand(c));
    expect(key('cd /repo && .venv/bin/python -m pytest tests/a.py 2>&1 | tail -20')).toBe(key('pytest tests/a.py'));
    expect(key('timeout 60 uv run pytest tests/a.py')).toBe('pytest tests/a.py');
    expect(key('pytest tests/a.py')).not.toBe(key('pytest tests/b.py'));
  });
});

describe('error resolution by file', () => {
  test('relative path in the command, absolute path in the edit', () => {
    expect(errors([failed('python teleclaude/core/foo.py', 'boom'), edit('/repo/teleclaude/core/foo.py')])).toEqual([]);
  });

  test('absolute path in the command, relative path in a later command', () => {
    expect(errors([failed('python /repo/scripts/x.py', 'boom'), shell('cat scripts/x.py')])).toEqual([]);
  });

  test('pytest node ids name their file', () => {
    expect(errors([failed('pytest tests/test_a.py::test_x', 'FAILED'), edit('/repo/tests/test_a.py')])).toEqual([]);
  });

  test('a patch of the same file resolves', () => {
    expect(errors([failed('python a.py', 'boom'), patch(['a.py'])])).toEqual([]);
  });

  test('a failed edit of the same file does not resolve', () => {
    expect(errors([failed('python a.py', 'boom'), edit('/repo/a.py', { outcome: 'error' })])).toHaveLength(2);
  });
});

describe('naming the failing command', () => {
  test('a backtick in the command is kept, in a longer code span (not rewritten into another command)', () => {
    expect(errors([failed('make `cat target`', 'make: *** [x] Error 2')])).toEqual([`${GENERIC_ERROR_OBSERVATION}: \`\` make \`cat target\` \`\` (call #1)`]);
  });

  test('a control character is shown escaped, never dropped; line breaks fold into one line', () => {
    expect(errors([failed('make\u001b[2J deploy\n  --force', 'boom')])).toEqual([`${GENERIC_ERROR_OBSERVATION}: \`make\\x1b[2J deploy --force\` (call #1)`]);
  });

  test('a long command is cut with an ellipsis; an empty one is named as such', () => {
    const long = `python ${'x'.repeat(100)}.py`;
    expect(errors([failed(long, 'boom')])).toEqual([`${GENERIC_ERROR_OBSERVATION}: \`python ${'x'.repeat(52)}…\` (call #1)`]);
    expect(errors([failed('  ', 'boom')])).toEqual([`${GENERIC_ERROR_OBSERVATION}: \`(empty command)\` (call #1)`]);
  });
});
