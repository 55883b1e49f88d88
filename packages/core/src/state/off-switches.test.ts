import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTruthyEnv, offSwitchPath, readOffSwitch, setOffSwitch } from './off-switches.ts';

let stateDir: string;
beforeEach(async () => {
  stateDir = join(await mkdtemp(join(tmpdir(), 'ac-switch-')), 'state');
});
afterEach(async () => {
  await rm(join(stateDir, '..'), { recursive: true, force: true });
});

describe('off switches', () => {
  it('are on by default, even without a state directory', async () => {
    expect(await readOffSwitch({ stateDir, sessionId: 's1', env: {} })).toEqual({ off: false, diagnostics: [] });
  });

  it('AGENT_CHECKPOINT_DISABLE turns everything off', async () => {
    for (const value of ['1', 'true', 'YES', 'on']) {
      expect(await readOffSwitch({ stateDir, sessionId: 's1', env: { AGENT_CHECKPOINT_DISABLE: value } })).toMatchObject({
        off: true,
        source: 'env',
      });
    }
    for (const value of ['', '0', 'false', 'no']) {
      expect((await readOffSwitch({ stateDir, env: { AGENT_CHECKPOINT_DISABLE: value } })).off).toBe(false);
    }
    expect(isTruthyEnv(undefined)).toBe(false);
  });

  it('a project switch silences only sessions whose project root it names, and lives in the state directory', async () => {
    const path = await setOffSwitch({ stateDir, scope: { kind: 'project', projectRoot: '/work/repo' }, off: true });
    expect(path.startsWith(join(stateDir, 'switches', 'project-'))).toBe(true);
    expect(await readOffSwitch({ stateDir, sessionId: 's1', projectRoot: '/work/repo', env: {} })).toMatchObject({ off: true, source: 'project', detail: path });
    expect((await readOffSwitch({ stateDir, sessionId: 's1', projectRoot: '/work/other', env: {} })).off).toBe(false);
    expect((await readOffSwitch({ stateDir, sessionId: 's1', env: {} })).off).toBe(false);
    expect(offSwitchPath(stateDir, { kind: 'project', projectRoot: '/work/repo' })).toBe(path);
    await setOffSwitch({ stateDir, scope: { kind: 'project', projectRoot: '/work/repo' }, off: false });
    expect((await readOffSwitch({ stateDir, projectRoot: '/work/repo', env: {} })).off).toBe(false);
  });

  it('a session switch silences only that session, persists, and turns back on', async () => {
    const path = await setOffSwitch({ stateDir, scope: { kind: 'session', sessionId: 's1' }, off: true });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(stateDir, 'switches'))).mode & 0o777).toBe(0o700);
    expect(await readOffSwitch({ stateDir, sessionId: 's1', env: {} })).toMatchObject({ off: true, source: 'session' });
    expect((await readOffSwitch({ stateDir, sessionId: 's2', env: {} })).off).toBe(false);
    // Idempotent both ways.
    await setOffSwitch({ stateDir, scope: { kind: 'session', sessionId: 's1' }, off: true });
    await setOffSwitch({ stateDir, scope: { kind: 'session', sessionId: 's1' }, off: false });
    await setOffSwitch({ stateDir, scope: { kind: 'session', sessionId: 's1' }, off: false });
    expect((await readOffSwitch({ stateDir, sessionId: 's1', env: {} })).off).toBe(false);
    expect(await readdir(join(stateDir, 'switches'))).toEqual([]);
  });

  it('the global switch silences every session', async () => {
    await setOffSwitch({ stateDir, scope: { kind: 'all' }, off: true });
    expect(await readOffSwitch({ stateDir, sessionId: 'any', env: {} })).toMatchObject({ off: true, source: 'all' });
    expect(await readOffSwitch({ stateDir, env: {} })).toMatchObject({ off: true, source: 'all' });
    await setOffSwitch({ stateDir, scope: { kind: 'all' }, off: false });
    expect((await readOffSwitch({ stateDir, sessionId: 'any', env: {} })).off).toBe(false);
  });

  it('hostile session ids stay inside the switches directory', () => {
    expect(offSwitchPath(stateDir, { kind: 'session', sessionId: '../../x' })).toMatch(
      new RegExp(`^${join(stateDir, 'switches')}/session-[0-9a-f]{64}\\.off$`),
    );
  });

  it('an unreadable switch counts as off (the user asked for silence), with a diagnostic', async () => {
    const path = offSwitchPath(stateDir, { kind: 'session', sessionId: 's1' });
    await mkdir(path, { recursive: true });
    const read = await readOffSwitch({ stateDir, sessionId: 's1', env: {} });
    expect(read).toMatchObject({ off: true, source: 'session' });
    expect(read.diagnostics).toHaveLength(1);
  });
});
