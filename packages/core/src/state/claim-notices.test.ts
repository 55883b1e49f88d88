import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TurnEndNotice } from '../turn-end/turn-end-notice.ts';
import { claimNotices } from './claim-notices.ts';
import { MAX_NOTICES_KEPT } from './session-state.ts';
import { readSessionState } from './session-state-store.ts';
import { sessionStatePath } from './state-files.ts';

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'ac-notices-'));
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

const BROKEN: TurnEndNotice = { kind: 'config-broken', text: 'agent-checkpoint: configuration problem: x' };
const UNTRUSTED: TurnEndNotice = { kind: 'config-untrusted', text: 'agent-checkpoint: run trust' };

describe('claimNotices', () => {
  it('shows each distinct notice once per session, records it, and keeps other state', async () => {
    const location = { stateDir: join(base, 'state'), agent: 'claude' as const, sessionId: 's1' };
    expect((await claimNotices({ ...location, notices: [BROKEN, BROKEN] })).show).toEqual([BROKEN]);
    expect((await claimNotices({ ...location, notices: [BROKEN] })).show).toEqual([]);
    // A new notice in the same session is shown; the old one still is not.
    expect((await claimNotices({ ...location, notices: [BROKEN, UNTRUSTED] })).show).toEqual([UNTRUSTED]);
    // Another session (and another agent with the same id) sees them afresh.
    expect((await claimNotices({ ...location, sessionId: 's2', notices: [BROKEN] })).show).toEqual([BROKEN]);
    expect((await claimNotices({ ...location, agent: 'codex', notices: [BROKEN] })).show).toEqual([BROKEN]);
    const { state, diagnostics } = await readSessionState(location);
    expect(diagnostics).toEqual([]);
    expect(state.noticesShown).toHaveLength(2);
    expect(state.turns).toEqual([]);
  });

  it('no notices: nothing is written', async () => {
    const location = { stateDir: join(base, 'state'), agent: 'gemini' as const, sessionId: 's1' };
    expect(await claimNotices({ ...location, notices: [] })).toEqual({ show: [], diagnostics: [] });
    expect(() => readFileSync(sessionStatePath(location))).toThrow(/ENOENT/);
  });

  it('state unavailable: shows every notice again (better twice than never), with a diagnostic, never throws', async () => {
    const stateDir = join(base, 'not-a-dir');
    writeFileSync(stateDir, 'a file where the state directory should be');
    const location = { stateDir, agent: 'claude' as const, sessionId: 's1' };
    for (let i = 0; i < 2; i += 1) {
      const result = await claimNotices({ ...location, notices: [BROKEN], lockWaitMs: 0 });
      expect(result.show).toEqual([BROKEN]);
      expect(result.diagnostics.join('\n')).toMatch(/could not be recorded/);
    }
  });

  it('the record is bounded: the oldest digests go first', async () => {
    const location = { stateDir: join(base, 'state'), agent: 'codex' as const, sessionId: 's1' };
    for (let i = 0; i < MAX_NOTICES_KEPT + 3; i += 1) {
      await claimNotices({ ...location, notices: [{ kind: 'transcript-unreadable', text: `n${i}` }] });
    }
    const { state } = await readSessionState(location);
    expect(state.noticesShown).toHaveLength(MAX_NOTICES_KEPT);
    // The first notice was forgotten, so it would be shown again; the newest is still remembered.
    expect((await claimNotices({ ...location, notices: [{ kind: 'transcript-unreadable', text: 'n0' }] })).show).toHaveLength(1);
    expect((await claimNotices({ ...location, notices: [{ kind: 'transcript-unreadable', text: `n${MAX_NOTICES_KEPT + 2}` }] })).show).toHaveLength(0);
  });
});

describe('claimNotices without the lock', () => {
  it('notices already on record are settled by an unlocked read: a held lock does not delay them', async () => {
    const location = { stateDir: join(base, 'state'), agent: 'claude' as const, sessionId: 's1' };
    expect((await claimNotices({ ...location, notices: [BROKEN] })).show).toEqual([BROKEN]);
    // Another hook holds the session lock (a fresh lock directory is never taken over).
    mkdirSync(`${sessionStatePath(location)}.lock`);
    const started = Date.now();
    expect(await claimNotices({ ...location, notices: [BROKEN], lockWaitMs: 2000 })).toEqual({ show: [], diagnostics: [] });
    expect(Date.now() - started).toBeLessThan(1000);
    // A new notice needs the lock: past the wait it is shown anyway.
    expect((await claimNotices({ ...location, notices: [UNTRUSTED], lockWaitMs: 50 })).show).toEqual([UNTRUSTED]);
  });
});
