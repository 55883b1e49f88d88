import { describe, expect, test } from 'vitest';
import { TELECLAUDE_RESPONSE_POLICY } from '../config/presets/teleclaude.ts';
import { abs, configWith, context, edit, failed, files, read, shell, teleclaudeConfig, timeline } from './build-test-timeline.ts';
import { composeGenericMessage, composeMessage, renderEscapeHatch } from './compose-message.ts';
import { runHeuristics } from './run-heuristics.ts';

const tc = teleclaudeConfig();
const DAEMON = 'teleclaude/core/foo.py';
const TUI = 'teleclaude/cli/tui/app.py';

/** The rendered example of teleclaude.md §4.10. */
function referenceScenario() {
  const calls = [
    failed('pytest', 'Traceback (most recent call last):\n  File "/repo/teleclaude/core/foo.py", line 1\nValueError'),
    edit(abs(DAEMON)),
    edit(abs(TUI)),
  ];
  const f = files([DAEMON, TUI]);
  return { f, result: runHeuristics(f, timeline(calls), context({ elapsedSeconds: 150 }), tc) };
}

describe('message composition (seed Task 8)', () => {
  test('teleclaude preset renders the original actionable layout', () => {
    const { f, result } = referenceScenario();
    expect(composeMessage(result, f, tc, { sessionId: 'sess-1' })).toBe(
      [
        '[TeleClaude Checkpoint] - Context-aware checkpoint',
        '',
        'Changed: daemon code, TUI code',
        '',
        'Required actions (BLOCKING — do not resume user-facing work until all complete):',
        '1. Run `make restart` then `make status`',
        "2. Send SIGUSR2 to the TUI: its PID from `pgrep -f -- '-m teleclaude.cli.telec$'`, then `kill -USR2 <PID>`",
        '3. Check logs: `instrukt-ai-logs teleclaude --since 3m`',
        '4. Run targeted tests for changed behavior',
        '5. Commit changed files',
        '6. All steps done — only then proceed',
        '',
        'Observations:',
        '- Daemon code was modified but `make restart` was not observed this turn',
        '- TUI code was modified but `pkill -SIGUSR2` was not observed this turn',
        '- Python errors remain unresolved — verify they are fixed: `pytest` (call #1)',
        '- Files were edited without being read first this turn — verify changes are correct',
        '',
        'Docs check: If relevant, update existing docs or add a new doc.',
        '',
        'Execute every required action above before responding to the user.',
        '',
        TELECLAUDE_RESPONSE_POLICY,
        '',
        'Capture anything worth keeping (memories, bugs, ideas).',
        '',
        'Escape hatch (last resort only, and only when there is no actionable information left): run `agent-checkpoint-hook off --session sess-1` to disable checkpoints for this session (a person can run `agent-checkpoint-hook off --session sess-1`).',
      ].join('\n'),
    );
  });

  test('message action precedence is deterministic', () => {
    const a = referenceScenario();
    const b = referenceScenario();
    expect(composeMessage(a.result, a.f, tc)).toBe(composeMessage(b.result, b.f, tc));
    const msg = composeMessage(a.result, a.f, tc)!;
    expect(msg.indexOf('1. Run `make restart`')).toBeLessThan(msg.indexOf('2. Send SIGUSR2'));
  });

  test('message observations separate from actions', () => {
    const { f, result } = referenceScenario();
    const msg = composeMessage(result, f, tc)!;
    const [actions, observations] = msg.split('\n\nObservations:\n');
    expect(actions!.split('\n').filter((l) => l.startsWith('- '))).toEqual([]);
    expect(observations!.split('\n\n')[0]!.split('\n').every((l) => l.startsWith('- '))).toBe(true);
    expect(result.observations.map((o) => o.kind)).toEqual(['verification-gap', 'verification-gap', 'unresolved-error', 'edit-without-read']);
  });

  test('message concise', () => {
    const { result } = referenceScenario();
    for (const o of result.observations) {
      // One sentence: no sentence break inside, short.
      expect(o.text).not.toMatch(/[.!?]\s+\S/);
      expect(o.text.length).toBeLessThan(160);
      expect(o.text).not.toContain('\n');
    }
  });

  test('all clear message is minimal', () => {
    const calls = [read(abs(DAEMON)), edit(abs(DAEMON)), shell('make restart && make status'), shell('instrukt-ai-logs teleclaude --since 2m'), shell('pytest -q')];
    const f = files([DAEMON]);
    const result = runHeuristics(f, timeline(calls), context(), tc);
    expect(result.isAllClear).toBe(true);
    expect(composeMessage(result, f, tc)).toBeUndefined();
    const loud = teleclaudeConfig({ silentWhenAllClear: false });
    expect(composeMessage(result, f, loud, { sessionId: 's' })).toBe(
      `[TeleClaude Checkpoint] - All expected validations were observed. Docs check: if relevant, update existing docs or add a new doc. Commit if ready.\n\n${TELECLAUDE_RESPONSE_POLICY}\n\nCapture anything worth keeping (memories, bugs, ideas).\n\nEscape hatch (last resort only, and only when there is no actionable information left): run \`agent-checkpoint-hook off --session s\` to disable checkpoints for this session (a person can run \`agent-checkpoint-hook off --session s\`).`,
    );
  });
});

describe('composeMessage with the defaults', () => {
  const cfg = configWith({ extends: 'python-uv' });

  test('default layout: prefix, header, changed, numbered actions, observations, reminder, escape hatch', () => {
    const calls = [edit('/repo/app/main.py')];
    const f = files(['app/main.py']);
    const msg = composeMessage(runHeuristics(f, timeline(calls), context(), cfg), f, cfg, { sessionId: 'abc' });
    expect(msg).toBe(
      [
        '[agent-checkpoint] Before you finish this turn:',
        '',
        'Changed: Python sources',
        '',
        'Required actions:',
        '1. Run the tests: `uv run pytest`',
        '',
        'Observations:',
        '- Files were edited without being read first this turn — verify changes are correct',
        '',
        'Do the required actions and check the observations now. Then give the user a short answer about the outcome; do not mention this checkpoint.',
        '',
        'If this checkpoint is wrong and cannot be satisfied, turn it off for this session by running `agent-checkpoint-hook off --session abc` (a person can run `agent-checkpoint-hook off --session abc`).',
      ].join('\n'),
    );
  });

  test('without categories the changed line lists a few files', () => {
    const bare = configWith({});
    const paths = ['src/a.c', 'src/b.c', 'src/c.c', 'src/d.c', 'src/e.c', 'src/f.c', 'README.md'];
    const f = files(paths);
    const result = runHeuristics(f, timeline([failed('make', 'cc: error')]), context(), bare);
    const msg = composeMessage(result, f, bare)!;
    expect(msg).toContain('Changed: `src/a.c`, `src/b.c`, `src/c.c`, `src/d.c`, `src/e.c` and 1 more');
    expect(msg).not.toContain('Required actions:');
    expect(msg).toContain('- A command returned errors — verify the issue is resolved');
  });

  test('docs-only and empty turns are silent by default', () => {
    const f = files(['README.md', 'docs/guide.md']);
    const result = runHeuristics(f, timeline([edit('/repo/README.md')]), context(), cfg);
    expect(composeMessage(result, f, cfg)).toBeUndefined();
    expect(composeMessage(runHeuristics([], timeline([]), context(), cfg), [], cfg)).toBeUndefined();
  });

  test('escape hatch without a session id keeps a placeholder', () => {
    const f = files(['app/main.py']);
    const msg = composeMessage(runHeuristics(f, timeline([]), context(), cfg), f, cfg)!;
    expect(msg).toContain('--session <session-id>');
  });

  test('generic fallback carries the prefix', () => {
    expect(composeGenericMessage(cfg)).toMatch(/^\[agent-checkpoint\] Before you finish: /);
    expect(composeGenericMessage(tc)).toBe(
      "[TeleClaude Checkpoint] - Continue or validate your work if needed. Perform checkpoint housekeeping silently, then send a short user-relevant debrief without mentioning checkpoint chores. Any truly interesting memories to be created that meet our criteria? (DON'T abuse it as work log!) If everything that is expected of you is done, do not respond.",
    );
  });

  test('every message starts with the configured prefix', () => {
    const custom = configWith({ extends: 'python', messages: { prefix: '>> ' }, silentWhenAllClear: false, silentWhenNoChanges: false });
    const f = files(['a.py']);
    expect(composeMessage(runHeuristics(f, timeline([]), context(), custom), f, custom)).toMatch(/^>> /);
    expect(composeMessage(runHeuristics([], timeline([]), context(), custom), [], custom)).toMatch(/^>> /);
    expect(composeGenericMessage(custom)).toMatch(/^>> /);
  });
});

describe('the capture reminder (messages.capture)', () => {
  const CAPTURE = 'Capture anything worth keeping (memories, bugs, ideas).';
  const edited = files(['app/main.py']);
  const actionable = (cfg: ReturnType<typeof configWith>) => composeMessage(runHeuristics(edited, timeline([edit('/repo/app/main.py')]), context(), cfg), edited, cfg, { sessionId: 'abc' });

  test('off by default: the defaults and the language presets end with the reminder and the escape hatch', () => {
    for (const cfg of [configWith({}), configWith({ extends: 'python-uv' }), configWith({ extends: 'node' })]) {
      expect(cfg.messages.capture).toBe('');
      expect(actionable(cfg)).not.toMatch(/capture/i);
    }
  });

  test('on in the teleclaude preset, in the seeds’ words', () => {
    expect(tc.messages.capture).toBe(CAPTURE);
  });

  test('configured: the closing line after the reminder, before the escape hatch', () => {
    const cfg = configWith({ extends: 'python-uv', messages: { capture: CAPTURE } });
    const sections = actionable(cfg)!.split('\n\n');
    expect(sections.slice(-3)).toEqual([
      cfg.messages.reminder,
      CAPTURE,
      'If this checkpoint is wrong and cannot be satisfied, turn it off for this session by running `agent-checkpoint-hook off --session abc` (a person can run `agent-checkpoint-hook off --session abc`).',
    ]);
  });

  test('every message that is shown ends with it: all clear and no changes too, when they are not silent', () => {
    const cfg = configWith({ extends: 'python-uv', messages: { capture: CAPTURE }, silentWhenAllClear: false, silentWhenNoChanges: false });
    const clear = runHeuristics(edited, timeline([read('/repo/app/main.py'), edit('/repo/app/main.py'), shell('uv run pytest')]), context(), cfg);
    expect(clear.isAllClear).toBe(true);
    expect(composeMessage(clear, edited, cfg)!.split('\n\n').at(-2)).toBe(CAPTURE);
    expect(composeMessage(runHeuristics([], timeline([]), context(), cfg), [], cfg)!.split('\n\n').at(-2)).toBe(CAPTURE);
  });

  test('the no-change policy wins: a turn that changed nothing stays silent, capture line or not', () => {
    for (const cfg of [tc, configWith({ extends: 'python-uv', messages: { capture: CAPTURE } })]) {
      expect(cfg.messages.capture).toBe(CAPTURE);
      expect(composeMessage(runHeuristics([], timeline([read('/repo/app/main.py'), shell('rg foo')]), context(), cfg), [], cfg)).toBeUndefined();
      const docs = files(['docs/guide.md']);
      expect(composeMessage(runHeuristics(docs, timeline([edit('/repo/docs/guide.md')]), context(), cfg), docs, cfg)).toBeUndefined();
    }
  });
});

describe('escape hatch', () => {
  const hatch = '[{sessionId}] [{offFile}] [{offCommand}]';

  test('with an off file: the agent-runnable command creates exactly that file', () => {
    expect(renderEscapeHatch(hatch, 'abc', '/state/switches/session-abc.off')).toBe(
      "[abc] [/state/switches/session-abc.off] [mkdir -p '/state/switches' && touch '/state/switches/session-abc.off']",
    );
  });

  test('paths with quotes and spaces are single-quoted safely', () => {
    expect(renderEscapeHatch('{offCommand}', 's', "/home/o'neil/my state/switches/session-s.off")).toBe(
      "mkdir -p '/home/o'\\''neil/my state/switches' && touch '/home/o'\\''neil/my state/switches/session-s.off'",
    );
  });

  test('without an off file the command falls back to the CLI, without a session id to a placeholder', () => {
    expect(renderEscapeHatch(hatch, 'abc')).toBe('[abc] [<state dir>/switches/session-abc.off] [agent-checkpoint-hook off --session abc]');
    expect(renderEscapeHatch(hatch, undefined)).toBe(
      '[<session-id>] [<state dir>/switches/session-<session-id>.off] [agent-checkpoint-hook off --session <session-id>]',
    );
  });

  test('the default text names the agent-runnable command and the human CLI command', () => {
    const calls = [edit(abs('app/main.py'))];
    const f = files(['app/main.py']);
    const cfg = configWith({ categories: [{ id: 'py', include: ['**/*.py'], action: 'Run `pytest`', evidence: ['pytest'] }] });
    const msg = composeMessage(runHeuristics(f, timeline(calls), context(), cfg), f, cfg, { sessionId: 'abc', offFile: '/s/switches/session-abc.off' })!;
    expect(msg.split('\n').at(-1)).toBe(
      "If this checkpoint is wrong and cannot be satisfied, turn it off for this session by running `mkdir -p '/s/switches' && touch '/s/switches/session-abc.off'` (a person can run `agent-checkpoint-hook off --session abc`).",
    );
  });
});
