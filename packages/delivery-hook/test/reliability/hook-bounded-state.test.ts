import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createDeliveryWorld, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { sessionStatePath } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { DELIVERY_FIXTURES } from '../../src/test-support/delivery-fixtures.ts';
import { expectAgentContract, runScenario } from './support.ts';

// Issue 23, class "bounded memory that forgets too much": the session state keeps the last 32 turns.
// A stop that arrives late for a turn older than those (a replayed or delayed Stop) must pass as
// already checkpointed, not be blocked a second time. Through the real hook bin for each agent, with
// a session state as 32 later checkpointed turns leave it.

/** core's `MAX_TURNS_KEPT` (not part of the public API). */
const MAX_TURNS_KEPT = 32;

const worlds: DeliveryWorld[] = [];
afterEach(() => {
  while (worlds.length > 0) worlds.pop()?.remove();
});

/** The session state after 32 other turns were checkpointed, the newest forgotten one at `forgottenThrough`. */
function seedState(world: DeliveryWorld, agent: string, sessionId: string, forgottenThrough: string, firstKeptAt: number): void {
  const path = sessionStatePath({ stateDir: world.stateDir, agent: agent as 'claude', sessionId });
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const turns = Array.from({ length: MAX_TURNS_KEPT }, (_, i) => {
    const at = new Date(firstKeptAt + i * 60_000).toISOString();
    return { turnId: `later-turn-${i}`, blocks: 1, firstBlockAt: at, lastBlockAt: at };
  });
  const last = turns[turns.length - 1]!.lastBlockAt;
  writeFileSync(path, JSON.stringify({ version: 1, agent, sessionId, lastCheckpointAt: last, turns, updatedAt: last, forgottenThrough }), { mode: 0o600 });
}

describe('a late stop of a turn the bounded state forgot', () => {
  for (const fixture of DELIVERY_FIXTURES) {
    it(`${fixture.agent}: passes as already checkpointed; a turn started after everything forgotten is still checkpointed`, { timeout: 60_000 }, async () => {
      const world = createDeliveryWorld(fixture);
      worlds.push(world);
      const scenario = world.scenario('actionable');
      const startedAt = (await world.expected(scenario)).timeline?.startedAt;
      expect(startedAt, 'the recorded turn has a start time').toBeDefined();
      const started = Date.parse(startedAt!);

      // 33+ turns after this one were checkpointed; the newest dropped one a minute after it started.
      seedState(world, fixture.agent, scenario.sessionId, new Date(started + 60_000).toISOString(), started + 120_000);
      expect(expectAgentContract(fixture.agent, await runScenario(scenario))).toBeNull();

      // The control: everything the state forgot happened before this turn started, so it is new.
      seedState(world, fixture.agent, scenario.sessionId, new Date(started - 60_000).toISOString(), started - 30 * 60_000);
      expect(expectAgentContract(fixture.agent, await runScenario(scenario))).not.toBeNull();
    });
  }
});
