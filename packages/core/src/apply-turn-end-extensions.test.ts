import { describe, expect, it } from 'vitest';
import { applyTurnEndExtensions, type ApplyTurnEndExtensionsInput } from './apply-turn-end-extensions.ts';
import { abs, configWith, context, edit, files, timeline } from './engine/build-test-timeline.ts';
import { composeMessage } from './engine/compose-message.ts';
import { runHeuristics } from './engine/run-heuristics.ts';
import type { SessionState } from './state/session-state.ts';
import type { TurnEndExtension, TurnEndExtensionInput } from './turn-end/turn-end-extension.ts';

// The pipeline's extension step on the engine's real result: order, recomposition, failures.

const config = configWith({
  categories: [{ id: 'daemon', include: ['src/daemon/**'], label: 'daemon code', action: 'Restart the daemon: `make restart`', evidence: ['make restart'] }],
});
const HATCH = { sessionId: 's-1', offFile: '/state/switches/session-s-1.off' };

function input(paths: string[], extensions: TurnEndExtension[]): ApplyTurnEndExtensionsInput {
  const f = files(paths);
  const t = timeline(paths.map((p) => edit(abs(p))));
  return {
    extensions,
    agent: 'claude',
    sessionId: 's-1',
    config,
    env: {},
    timeline: t,
    git: { kind: 'not-a-repo' },
    files: f,
    result: runHeuristics(f, t, context({ elapsedSeconds: 90 }), config),
    projectRoot: '/repo',
    hatch: HATCH,
    now: new Date('2026-01-10T10:00:00Z'),
  };
}

const recording = (name: string, seen: TurnEndExtensionInput[], output: Awaited<ReturnType<TurnEndExtension['run']>>): TurnEndExtension => ({
  name,
  run: (i) => {
    seen.push(i);
    return Promise.resolve(output);
  },
});

describe('applyTurnEndExtensions', () => {
  it('runs in order; a later extension sees the earlier result and message; lines join the message', async () => {
    const seen: TurnEndExtensionInput[] = [];
    const turn = input(['src/daemon/main.ts'], []);
    const failing = turn.result;
    expect(failing.isAllClear, 'precondition: the engine asks for the restart').toBe(false);
    // The turn as if everything was done: silent until the first extension brings the finding back.
    const quiet = { ...turn, result: { ...failing, requiredActions: [], observations: [], isAllClear: true } };
    const out = await applyTurnEndExtensions({
      ...quiet,
      extensions: [
        recording('first', seen, { result: failing, tests: { headline: 'Tests: FAILED (exit 2, 1.0 s)' }, detail: { n: 1 } }),
        recording('second', seen, { lines: ['Context is at 75% (L1).'], detail: 'second' }),
      ],
    });
    expect(seen.map((s) => s.hasMessage)).toEqual([false, true]);
    expect(seen[1]?.result).toBe(failing);
    expect(out.result).toBe(failing);
    expect(out.details).toEqual({ first: { n: 1 }, second: 'second' });
    expect(out.message).toBe(
      composeMessage(failing, quiet.files, config, { ...HATCH, tests: { headline: 'Tests: FAILED (exit 2, 1.0 s)' }, contextLines: ['Context is at 75% (L1).'] }),
    );
  });

  it('lines alone block only when an extension says so (mode `context`); otherwise a silent turn stays silent', async () => {
    const base = input(['docs/notes.md'], []);
    const riding = await applyTurnEndExtensions({ ...base, extensions: [recording('c', [], { lines: ['Context is at 75% (L1).'] })] });
    expect(riding).toMatchObject({ message: undefined });
    expect(riding.mode).toBeUndefined();
    const alone = await applyTurnEndExtensions({ ...base, extensions: [recording('c', [], { lines: ['Context is at 86% (L2).'], blocksAlone: true })] });
    expect(alone.mode).toBe('context');
    expect(alone.message).toContain('[agent-checkpoint] Context is at 86% (L2).');
  });

  it('an extension that throws is a diagnostic and changes nothing; onClaimGranted hooks compose in order', async () => {
    const base = input(['src/daemon/main.ts'], []);
    const mark = (tag: string) => (state: SessionState): SessionState => ({ ...state, delivered: [...(state.delivered ?? []), tag] });
    const out = await applyTurnEndExtensions({
      ...base,
      extensions: [
        recording('a', [], { onClaimGranted: mark('a') }),
        { name: 'boom', run: () => Promise.reject(new Error('kaput')) },
        recording('b', [], { onClaimGranted: mark('b'), diagnostics: ['b: note'] }),
      ],
    });
    expect(out.diagnostics).toEqual(['boom: failed: kaput', 'b: note']);
    expect(out.message).toBe(composeMessage(base.result, base.files, config, HATCH));
    const state = out.onClaimGranted?.({ version: 1, agent: 'claude', sessionId: 's-1', turns: [] }, base.now);
    expect(state?.delivered).toEqual(['a', 'b']);
  });
});
