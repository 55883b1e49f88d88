import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTrustStore, trustStorePath } from '../config/project-config-trust.ts';
import { offSwitchPath, readOffSwitch } from './off-switches.ts';
import { readSessionState } from './session-state-store.ts';
import { sessionStatePath } from './state-files.ts';

/*
 * The state directory's path is handed to the agent (the escape hatch), and handoffs live in the
 * repository (handoffs: @agent-checkpoint/context-checkpoint, latest-handoff.links.test.ts): a link planted where one of our files should be must not make the hook read its target
 * (a secret would flow into a diagnostic, a decision or the model's context). Real symlinks to real
 * files inside the temp dir.
 */
const SECRET = 'TOP-SECRET-7f3a';

let base: string;
let stateDir: string;
let secret: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ac-state-links-')));
  stateDir = join(base, 'state');
  mkdirSync(stateDir, { mode: 0o700 });
  secret = join(base, 'secret.json');
  // Valid JSON of the shapes read, so following the link would be accepted, not rejected as garbage.
  writeFileSync(secret, JSON.stringify({ version: 1, turns: [], files: { [SECRET]: { sha256: 'a'.repeat(64), trustedAt: SECRET } } }));
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

function plant(path: string, target = secret): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  symlinkSync(target, path);
}

describe('state-dir files are never read through a symlink', () => {
  it('session state: a planted link reads as a fresh state with a diagnostic naming the link', async () => {
    const location = { stateDir, agent: 'claude' as const, sessionId: 'sess-1' };
    plant(sessionStatePath(location));
    const read = await readSessionState(location);
    expect(read.diagnostics).toEqual([`state: cannot read ${sessionStatePath(location)}: a symlink (not followed)`]);
    expect(JSON.stringify(read)).not.toContain(SECRET);
  });

  it('trust store: a planted link trusts nothing (its target would have trusted a file)', () => {
    plant(trustStorePath(stateDir));
    const store = readTrustStore(stateDir);
    expect(store.files).toEqual({});
    expect(store.diagnostics).toEqual([`${trustStorePath(stateDir)}: cannot be read (a symlink, not followed); no project file is trusted`]);
  });

  it('off switch: a planted link is not read; it still counts as the switch (the user asked for silence), with a diagnostic', async () => {
    const path = offSwitchPath(stateDir, { kind: 'all' });
    plant(path);
    const state = await readOffSwitch({ stateDir, env: {} });
    expect(state).toMatchObject({ off: true, source: 'all', diagnostics: [`switch: cannot read ${path}: a symlink (not followed)`] });
  });

});
