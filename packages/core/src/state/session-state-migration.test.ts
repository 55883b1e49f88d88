import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateSessionStateJson } from './session-state.ts';
import { readSessionState, updateSessionState } from './session-state-store.ts';
import { sessionStatePath } from './state-files.ts';

let stateDir: string;
beforeEach(() => {
  stateDir = mkdtempSync(join(tmpdir(), 'ac-state-migrate-'));
});
afterEach(() => {
  rmSync(stateDir, { recursive: true, force: true });
});

const location = () => ({ stateDir, agent: 'claude' as const, sessionId: 's1' });
/** A state file as versions before the per-extension slot wrote it: `context`, `commitGate` at the top. */
const LEGACY = {
  version: 1,
  agent: 'claude',
  sessionId: 's1',
  turns: [{ turnId: 't1', blocks: 1, firstBlockAt: '2026-01-10T10:00:00.000Z', lastBlockAt: '2026-01-10T10:00:00.000Z' }],
  context: { announcedLevel: 'L1', handoffLevel: 'L2', handoffPath: '.agent-checkpoint/handoffs/h.md' },
  commitGate: { turnId: 't1', armedAt: '2026-01-10T10:00:00.000Z' },
};

describe('session state files written before the extensions slot', () => {
  it('are read with context and commitGate moved into extensions, and written back that way (nothing lost)', async () => {
    const path = sessionStatePath(location());
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(LEGACY));
    const { state, diagnostics } = await readSessionState(location());
    expect(diagnostics).toEqual([]);
    expect(state.turns).toHaveLength(1);
    expect(state.extensions).toEqual({ context: LEGACY.context, commitGate: LEGACY.commitGate });
    expect(Object.hasOwn(state, 'context')).toBe(false);
    expect(Object.hasOwn(state, 'commitGate')).toBe(false);
    // Any write stores the migrated shape.
    await updateSessionState(location(), (s) => ({ state: { ...s, updatedAt: '2026-01-10T11:00:00.000Z' }, value: undefined }));
    const written = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    expect(written['extensions']).toEqual({ context: LEGACY.context, commitGate: LEGACY.commitGate });
    expect(written['context']).toBeUndefined();
  });

  it('a slot already in extensions wins over a stray legacy field; non-objects are left to the schema', () => {
    const both = { ...LEGACY, extensions: { context: { announcedLevel: 'L3' } } };
    expect(migrateSessionStateJson(both)).toMatchObject({ extensions: { context: { announcedLevel: 'L3' }, commitGate: LEGACY.commitGate } });
    expect(migrateSessionStateJson([1])).toEqual([1]);
    expect(migrateSessionStateJson(null)).toBeNull();
    const current = { version: 1, agent: 'claude', sessionId: 's', turns: [] };
    expect(migrateSessionStateJson(current)).toBe(current);
  });
});
