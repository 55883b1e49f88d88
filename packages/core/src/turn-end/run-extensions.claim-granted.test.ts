import { describe, expect, it } from 'vitest';
import { configWith, context, edit, abs, files, timeline } from '../engine/build-test-timeline.ts';
import { runHeuristics } from '../engine/run-heuristics.ts';
import type { SessionState } from '../state/session-state.ts';
import { runExtensions } from './run-extensions.ts';
import type { TurnEndExtension, TurnEndExtensionInput } from './turn-end-extension.ts';

// An extension's bookkeeping for a granted block (`onClaimGranted`) reaches the claim through the
// outcome: runExtensions composes them in order, skipping an extension that threw.

const config = configWith({});
const f = files(['src/a.ts']);
const t = timeline([edit(abs('src/a.ts'))]);
const input: TurnEndExtensionInput = {
  agent: 'claude',
  sessionId: 's-1',
  config,
  env: {},
  timeline: t,
  git: { kind: 'not-a-repo' },
  files: f,
  result: runHeuristics(f, t, context({ elapsedSeconds: 90 }), config),
  hasMessage: false,
  projectRoot: '/repo',
  now: new Date('2026-01-10T10:00:00Z'),
};
const mark = (tag: string) => (state: SessionState): SessionState => ({ ...state, delivered: [...(state.delivered ?? []), tag] });
const extension = (name: string, onClaimGranted?: (state: SessionState) => SessionState): TurnEndExtension => ({
  name,
  run: () => Promise.resolve(onClaimGranted ? { onClaimGranted } : {}),
});

describe('runExtensions: onClaimGranted', () => {
  it('composes every extension’s hook in order; one that throws adds none', async () => {
    const applied = await runExtensions(
      [extension('a', mark('a')), { name: 'boom', run: () => Promise.reject(new Error('kaput')) }, extension('none'), extension('b', mark('b'))],
      input,
    );
    const state = applied.onClaimGranted?.({ version: 1, agent: 'claude', sessionId: 's-1', turns: [] }, input.now);
    expect(state?.delivered).toEqual(['a', 'b']);
    expect(applied.diagnostics).toEqual(['extension boom failed: kaput; decision unchanged']);
  });

  it('is absent when no extension asks', async () => {
    expect((await runExtensions([extension('none')], input)).onClaimGranted).toBeUndefined();
  });
});
