import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setOffSwitch } from '../state/off-switches.ts';
import { checkTurnEndEarly } from './early-pass.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ac-early-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('checkTurnEndEarly', () => {
  it('passes a turn end whose project is switched off, and only that project', async () => {
    const stateDir = join(root, 'state');
    await setOffSwitch({ stateDir, scope: { kind: 'project', projectRoot: '/repos/a' }, off: true });
    const off = await checkTurnEndEarly({ stateDir, sessionId: 's', projectRoot: '/repos/a', env: {} });
    expect(off).toMatchObject({ kind: 'pass', reason: 'switched-off', detail: expect.stringContaining('(project: ') });
    expect((await checkTurnEndEarly({ stateDir, sessionId: 's', projectRoot: '/repos/b', env: {} })).kind).toBe('continue');
    expect((await checkTurnEndEarly({ stateDir, sessionId: 's', env: {} })).kind).toBe('continue');
  });
});
