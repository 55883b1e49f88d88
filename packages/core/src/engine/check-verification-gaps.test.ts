import { describe, expect, test } from 'vitest';
import { abs, context, edit, failed, files, read, shell, teleclaudeConfig, timeline, noTranscript } from './build-test-timeline.ts';
import { failedSentence, gapSentence } from './check-verification-gaps.ts';
import { runHeuristics } from './run-heuristics.ts';
import type { ToolCall } from '../timeline/tool-call.ts';

const tc = teleclaudeConfig();
const DAEMON = 'teleclaude/core/foo.py';
const TUI = 'teleclaude/cli/tui/app.py';
const RESTART = 'Run `make restart` then `make status`';
const STATUS = 'Run `make status` to verify daemon health';
const SIGUSR2 = "Send SIGUSR2 to the TUI: its PID from `pgrep -f -- '-m teleclaude.cli.telec$'`, then `kill -USR2 <PID>`";

function run(paths: readonly string[], calls: readonly ToolCall[], elapsedSeconds = 60) {
  return runHeuristics(files(paths), timeline(calls), context({ elapsedSeconds }), tc);
}
const touch = (p: string): ToolCall[] => [read(abs(p)), edit(abs(p))];
const texts = (r: ReturnType<typeof run>) => r.requiredActions.map((a) => a.text);
const obs = (r: ReturnType<typeof run>) => r.observations.map((o) => o.text);

describe('verification gaps (seed Task 8)', () => {
  test('restart suppressed when make restart in transcript', () => {
    const r = run([DAEMON], [...touch(DAEMON), shell('make restart'), shell('make status')]);
    expect(texts(r)).not.toContain(RESTART);
    expect(texts(r)).not.toContain(STATUS);
    const daemon = r.categories.find((c) => c.id === 'daemon-code')!;
    expect(daemon.required).toBe(false);
    expect(daemon.evidenceMatched).toBe('make restart');
  });

  test('restart not suppressed when absent', () => {
    const r = run([DAEMON], touch(DAEMON));
    expect(texts(r)[0]).toBe(RESTART);
    expect(obs(r)).toContain('Daemon code was modified but `make restart` was not observed this turn');
  });

  test('restart not suppressed when make restart failed', () => {
    const r = run([DAEMON], [...touch(DAEMON), failed('make restart', 'make: *** [restart] Error 1')]);
    expect(texts(r)[0]).toBe(RESTART);
  });

  test('make status required when status failed', () => {
    const r = run([DAEMON], [...touch(DAEMON), shell('make restart'), failed('make status', 'daemon down')]);
    expect(texts(r)).not.toContain(RESTART);
    expect(texts(r)).toContain(STATUS);
  });

  test('make status must come after the restart', () => {
    const r = run([DAEMON], [...touch(DAEMON), shell('make status'), shell('make restart')]);
    expect(texts(r)).toContain(STATUS);
    const ok = run([DAEMON], [...touch(DAEMON), shell('make restart && make status')]);
    expect(texts(ok)).not.toContain(STATUS);
  });

  test('sigusr2 suppressed when pkill in transcript', () => {
    const r = run([TUI], [...touch(TUI), shell("pkill -SIGUSR2 -f -- '-m teleclaude.cli.telec$'")]);
    expect(texts(r)).not.toContain(SIGUSR2);
    const viaKill = run([TUI], [...touch(TUI), shell('kill -USR2 4242')]);
    expect(texts(viaKill)).not.toContain(SIGUSR2);
  });

  test('sigusr2 not suppressed when pkill precedes latest tui edit', () => {
    const r = run([TUI], [read(abs(TUI)), edit(abs(TUI)), shell('pkill -SIGUSR2 -f telec'), edit(abs(TUI))]);
    expect(texts(r)).toContain(SIGUSR2);
  });

  test('sigusr2 suppressed when pkill follows latest tui edit', () => {
    const r = run([TUI], [read(abs(TUI)), edit(abs(TUI)), edit(abs(TUI)), shell('pkill -SIGUSR2 -f telec')]);
    expect(texts(r)).not.toContain(SIGUSR2);
  });

  test('restart before the last daemon edit does not count (evidence after last edit)', () => {
    const r = run([DAEMON], [read(abs(DAEMON)), shell('make restart'), shell('make status'), edit(abs(DAEMON))]);
    expect(texts(r)[0]).toBe(RESTART);
  });

  test('agent restart suppressed when api restart call seen', () => {
    const p = 'agents/skills/foo/SKILL.md';
    const r = run([p], [...touch(p), shell('curl -s --unix-socket /tmp/teleclaude-api.sock -X POST "http://localhost/sessions/$(cat "$TMPDIR/teleclaude_session_id")/agent-restart"')]);
    expect(texts(r).some((t) => t.startsWith('Reload artifacts'))).toBe(false);
  });

  test('log check suppressed when instrukt-ai-logs in transcript', () => {
    const r = run([DAEMON], [...touch(DAEMON), shell('instrukt-ai-logs teleclaude --since 5m')]);
    expect(texts(r).some((t) => t.startsWith('Check logs'))).toBe(false);
  });

  test('hook runtime only requires log check when missing', () => {
    const p = 'teleclaude/hooks/receiver.py';
    const r = run([p], touch(p));
    expect(texts(r)).toContain('Check logs: `instrukt-ai-logs teleclaude --since 2m`');
  });

  test('log window flows through to actions', () => {
    const r = run([DAEMON], touch(DAEMON), 481);
    expect(texts(r)).toContain('Check logs: `instrukt-ai-logs teleclaude --since 9m`');
  });

  // oxlint-disable-next-line vitest/valid-title -- 'test instruction' is the subject (the run-tests line), not a repeated prefix
  test('test instruction suppressed when pytest in transcript', () => {
    const r = run([DAEMON], [...touch(DAEMON), shell('pytest tests/unit -q')]);
    expect(texts(r)).not.toContain('Run targeted tests for changed behavior');
    const tests = 'tests/unit/test_foo.py';
    const onlyTests = run([tests], [...touch(tests), shell('uv run pytest tests/unit/test_foo.py')]);
    expect(onlyTests.requiredActions).toEqual([]);
  });

  test('mixed source and tests no duplicate test actions', () => {
    const r = run([DAEMON, 'tests/unit/test_foo.py'], [...touch(DAEMON), ...touch('tests/unit/test_foo.py')]);
    expect(texts(r).filter((t) => /tests/.test(t))).toEqual(['Run targeted tests for changed behavior']);
  });

  test('tests-only diff gets one test action, not two', () => {
    const p = 'tests/unit/test_foo.py';
    const r = run([p], touch(p));
    expect(texts(r)).toEqual(['Run targeted tests for changed test files']);
  });

  test('daemon and config emit single restart action', () => {
    const r = run([DAEMON, 'config.yml'], [...touch(DAEMON), ...touch('config.yml')]);
    expect(texts(r).filter((t) => t === RESTART)).toHaveLength(1);
  });

  test('action precedence is deterministic', () => {
    const paths = ['teleclaude/core/foo.py', 'pyproject.toml', TUI, '.pre-commit-config.yaml'];
    const r = run(paths, paths.flatMap(touch));
    expect(texts(r)).toEqual([
      'Run `telec init` (setup changed: watchers, hook installers, or git filters)',
      'Install updated dependencies: `uv sync --extra test`',
      RESTART,
      SIGUSR2,
      'Check logs: `instrukt-ai-logs teleclaude --since 2m`',
      'Run targeted tests for changed behavior',
    ]);
    // Same input in another file order: same actions.
    const reversed = run([...paths].reverse(), [...paths].reverse().flatMap(touch));
    expect(texts(reversed)).toEqual(texts(r));
  });

  test('all suppressed emits all clear', () => {
    const r = run(
      [DAEMON],
      [...touch(DAEMON), shell('make restart'), shell('make status'), shell('instrukt-ai-logs teleclaude --since 2m'), shell('pytest tests/unit')],
    );
    expect(r.requiredActions).toEqual([]);
    expect(r.observations).toEqual([]);
    expect(r.isAllClear).toBe(true);
  });

  test('without transcript data actions stay but gap observations are not claimed', () => {
    const r = runHeuristics(files([DAEMON], 'fallback-all-uncommitted'), noTranscript(), context(), tc);
    expect(texts(r)[0]).toBe(RESTART);
    expect(r.observations).toEqual([]);
  });
});

describe('gapSentence', () => {
  test('upper-cases only the first letter', () => {
    expect(gapSentence('TUI code', ['pkill -SIGUSR2'])).toBe('TUI code was modified but `pkill -SIGUSR2` was not observed this turn');
    expect(gapSentence('telec setup', ['telec init'])).toBe('Telec setup was modified but `telec init` was not observed this turn');
  });

  test('does not show regex evidence', () => {
    expect(gapSentence('agent artifacts', ['/^curl\\b/'])).toBe('Agent artifacts was modified but its follow-up was not observed this turn');
  });
});

describe('gap sentence names the command of the action', () => {
  test('pairs a pnpm action with pnpm evidence, not the first (npm) evidence', () => {
    expect(gapSentence('Node package manifest', ['npm install', 'pnpm install', 'yarn'], 'Install dependencies: `pnpm install`')).toBe(
      'Node package manifest was modified but `pnpm install` was not observed this turn',
    );
  });
  test('falls back to the first plain evidence when the action quotes no matching command', () => {
    expect(gapSentence('Config', ['make restart'], 'Restart the daemon')).toBe('Config was modified but `make restart` was not observed this turn');
  });
});

describe('what explain needs (evaluation details)', () => {
  test('follow-ups report required, satisfied (with the call) and covered', () => {
    const pytest = shell('pytest tests/unit -q');
    const satisfied = run([DAEMON], [...touch(DAEMON), pytest]);
    expect(satisfied.followUps?.find((f) => f.id === 'tests')).toMatchObject({ status: 'satisfied', evidenceCallId: pytest.id, triggeredBy: ['daemon-code'] });
    const required = run([DAEMON], touch(DAEMON));
    expect(required.followUps?.find((f) => f.id === 'tests')).toEqual({
      id: 'tests',
      action: 'Run targeted tests for changed behavior',
      triggeredBy: ['daemon-code'],
      status: 'required',
    });
    const onlyTests = run(['tests/unit/test_foo.py'], touch('tests/unit/test_foo.py'));
    expect(onlyTests.followUps?.find((f) => f.id === 'tests')?.status).toBe('covered');
  });

  test('a verification gap names the call that last changed the category', () => {
    const first = edit(abs(DAEMON));
    const last = edit(abs(DAEMON));
    const r = run([DAEMON], [read(abs(DAEMON)), first, last]);
    expect(r.observations.find((o) => o.kind === 'verification-gap')?.callIds).toEqual([last.id]);
  });
});

describe('gap observation for a command that ran but failed', () => {
  test('says it failed instead of "was not observed"', () => {
    expect(failedSentence('Tests', 'pytest')).toBe('Tests was modified but `pytest` failed this turn and has not passed since');
  });
});

describe('a failed evidence run in the turn', () => {
  test('is reported as failed and points at the failing call, not as "not observed"', () => {
    const r = run([DAEMON], [...touch(DAEMON), failed('make restart', 'make: *** [restart] Error 1')]);
    const gap = r.observations.find((o) => o.kind === 'verification-gap');
    expect(gap?.text).toBe('Daemon code was modified but `make restart` failed this turn and has not passed since');
    expect(gap?.callIds.length).toBe(1);
    expect(r.requiredActions.some((a) => a.text.includes('make restart'))).toBe(true);
  });
});

describe('a command of unknown outcome (an older Codex code-mode cell) is an attempt, not a pass', () => {
  const unknown = (command: string) => shell(command, { outcome: 'unknown' });

  test('a restart attempt satisfies the restart; its verify step must still succeed after it', () => {
    const attempted = unknown('make restart');
    const r = run([DAEMON], [...touch(DAEMON), attempted]);
    expect(texts(r)).not.toContain(RESTART);
    expect(texts(r)).toContain(STATUS);
    expect(r.categories.find((c) => c.id === 'daemon-code')).toMatchObject({ required: false, evidenceCallId: attempted.id });
    const verified = run([DAEMON], [...touch(DAEMON), unknown('make restart'), shell('make status')]);
    expect(texts(verified)).not.toContain(RESTART);
    expect(texts(verified)).not.toContain(STATUS);
  });

  test('a verify step of unknown outcome does not verify', () => {
    const r = run([DAEMON], [...touch(DAEMON), unknown('make restart'), unknown('make status')]);
    expect(texts(r)).toContain(STATUS);
  });

  test('a test run of unknown outcome does not prove the tests passed', () => {
    const p = 'tests/unit/test_foo.py';
    const pytest = unknown('pytest tests/unit/test_foo.py');
    const r = run([p], [...touch(p), pytest]);
    expect(texts(r)).toEqual(['Run targeted tests for changed test files']);
    const gap = r.observations.find((o) => o.kind === 'verification-gap');
    expect(gap?.text).toMatch(/`pytest` ran with an outcome the transcript does not record/);
    expect(gap?.callIds).toEqual([pytest.id]);
    const followUp = run([DAEMON], [...touch(DAEMON), shell('make restart'), shell('make status'), unknown('pytest tests/unit -q')]);
    expect(texts(followUp)).toContain('Run targeted tests for changed behavior');
    // Never an error, even with error-like output; a failure after the attempt is reported as one.
    const noisy = run([p], [...touch(p), shell('pytest tests/unit/test_foo.py', { outcome: 'unknown', output: 'Traceback (most recent call last)' })]);
    expect(noisy.observations.filter((o) => o.kind === 'unresolved-error')).toEqual([]);
    const thenFailed = run([p], [...touch(p), unknown('pytest tests/unit/test_foo.py'), failed('pytest tests/unit/test_foo.py', '1 failed')]);
    expect(thenFailed.observations.find((o) => o.kind === 'verification-gap')?.text).toMatch(/failed this turn/);
  });
});
