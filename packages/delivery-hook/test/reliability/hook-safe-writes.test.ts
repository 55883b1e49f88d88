import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toSafeSessionId } from '@agent-checkpoint/core/hot-path';
import { createDeliveryWorld, type DeliveryFixture, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { DELIVERY_FIXTURES } from '../../src/test-support/delivery-fixtures.ts';
import { expectAgentContract, runScenario } from './support.ts';

// Issue 12, class 2: the hook never writes through a link planted in the state directory (whose path
// the escape hatch gives to the agent), never into a FIFO or a device node, and refuses a state
// directory others can write to. Each refusal is a one-line diagnostic; the hook still answers its
// agent. Every link, FIFO and device lives inside the test's temp world.

const IS_ROOT = process.getuid?.() === 0;

let world: DeliveryWorld | undefined;
afterEach(() => {
  world?.remove();
  world = undefined;
});

function open(fixture: DeliveryFixture): DeliveryWorld {
  world = createDeliveryWorld(fixture);
  return world;
}

/** A file outside the state directory that a followed link would change. */
function victim(w: DeliveryWorld, name: string): string {
  const dir = join(w.root, 'victims');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `precious ${name}\n`);
  return path;
}

function expectUntouched(path: string, name: string): void {
  expect(readFileSync(path, 'utf8'), path).toBe(`precious ${name}\n`);
}

describe.each(DELIVERY_FIXTURES.map((f) => [f.agent, f] as const))('%s: planted links in the state directory', (agent, fixture) => {
  it('the session state, debug log and prune marker are never written through a symlink', { timeout: 60_000 }, async () => {
    const w = open(fixture);
    const stateLink = join(w.stateDir, 'sessions', `${agent}-${toSafeSessionId(fixture.sessionId)}.json`);
    mkdirSync(join(w.stateDir, 'sessions'), { recursive: true, mode: 0o700 });
    const stateVictim = victim(w, 'state');
    const logVictim = victim(w, 'log');
    const pruneVictim = victim(w, 'prune');
    // An old mtime makes the (followed) marker look due, so the old code truncated its target.
    const old = new Date(Date.now() - 3 * 24 * 3600 * 1000);
    utimesSync(pruneVictim, old, old);
    symlinkSync(stateVictim, stateLink);
    symlinkSync(logVictim, join(w.stateDir, 'debug.log'));
    symlinkSync(pruneVictim, join(w.stateDir, '.last-prune'));

    // The planted session file: the state cannot be written, so the stop passes, with a diagnostic.
    const planted = await runScenario(w.scenario('actionable', { AGENT_CHECKPOINT_DEBUG: '1' }), { killAfterMs: 30_000 });
    expectAgentContract(agent, planted);
    expect(planted.stderr).toMatch(/refusing to write .*sessions.*symlink/);
    expect(planted.stderr).toMatch(/debug log: refusing to write .*debug\.log.*symlink/);

    // Another session: its state is written (a block is delivered) and the due prune refuses the marker.
    const other = { ...w.scenario('actionable', { AGENT_CHECKPOINT_DEBUG: '1' }), sessionId: 'another-session' };
    const delivered = await runScenario(other, { killAfterMs: 30_000 });
    expect(expectAgentContract(agent, delivered)).not.toBeNull();
    expect(delivered.stderr).toMatch(/pruning .* failed: refusing to write .*\.last-prune.*symlink/);

    expectUntouched(stateVictim, 'state');
    expectUntouched(logVictim, 'log');
    expectUntouched(pruneVictim, 'prune');
    for (const link of [stateLink, join(w.stateDir, 'debug.log'), join(w.stateDir, '.last-prune')]) expect(lstatSync(link).isSymbolicLink(), link).toBe(true);
  });
});

describe('special files in the state directory', () => {
  const fixture = DELIVERY_FIXTURES[0]!;

  it.skipIf(process.platform === 'win32')('a FIFO as the debug log is refused at once (the old append waited for a reader forever)', { timeout: 60_000 }, async () => {
    const w = open(fixture);
    mkdirSync(w.stateDir, { recursive: true, mode: 0o700 });
    execFileSync('mkfifo', [join(w.stateDir, 'debug.log')]);
    const result = await runScenario(w.scenario('actionable', { AGENT_CHECKPOINT_DEBUG: '1' }), { killAfterMs: 20_000 });
    expect(expectAgentContract(fixture.agent, result)).not.toBeNull();
    expect(result.stderr).toMatch(/debug log: refusing to write .*FIFO/);
    expect(lstatSync(join(w.stateDir, 'debug.log')).isFIFO()).toBe(true);
  });

  // A device node made with mknod inside the temp world (the null device's numbers), never a real one.
  it.skipIf(!IS_ROOT)('a character device as the session state stays a device; the stop passes with a diagnostic', { timeout: 60_000 }, async () => {
    const w = open(fixture);
    mkdirSync(join(w.stateDir, 'sessions'), { recursive: true, mode: 0o700 });
    const device = join(w.stateDir, 'sessions', `${fixture.agent}-${toSafeSessionId(fixture.sessionId)}.json`);
    execFileSync('mknod', [device, 'c', '1', '3']);
    const result = await runScenario(w.scenario('actionable'), { killAfterMs: 30_000 });
    expect(expectAgentContract(fixture.agent, result)).toBeNull();
    expect(result.stderr).toMatch(/refusing to write .*character device/);
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });

  it.skipIf(process.platform === 'win32')('a state directory others can write to is refused, and nothing is written in it', { timeout: 60_000 }, async () => {
    const w = open(fixture);
    mkdirSync(w.stateDir, { recursive: true });
    chmodSync(w.stateDir, 0o777);
    const before = readdirSync(w.stateDir);
    const result = await runScenario(w.scenario('actionable', { AGENT_CHECKPOINT_DEBUG: '1' }), { killAfterMs: 30_000 });
    expectAgentContract(fixture.agent, result);
    expect(result.stderr).toMatch(/the state directory is not private: .*writable by its group or others/);
    expect(readdirSync(w.stateDir)).toEqual(before);
    expect(statSync(w.stateDir).mode & 0o777).toBe(0o777);
  });
});
