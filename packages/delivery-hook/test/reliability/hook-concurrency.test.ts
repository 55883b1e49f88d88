import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryScenario, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { DELIVERY_FIXTURES } from '../../src/test-support/delivery-fixtures.ts';
import { expectAgentContract, readAllSessionStates, runScenario } from './support.ts';

// Many sessions at once (docs/reliability.md). The one-session case — 50 hooks on one turn deliver
// exactly one block — is src/cli-integration.test.ts; the mixed hook + tmux case on one turn is
// delivery-tmux/test/reliability. Here: every agent, several sessions each, several hooks per
// session, all started together. Each session gets exactly one block, byte-identical to
// getCheckpoint, every state file is valid JSON recording that one block, no lock or temp file is
// left behind, and a second wave of stops in the same turns delivers nothing.

const SESSIONS_PER_AGENT = 6;
const HOOKS_PER_SESSION = 3;

const worlds: DeliveryWorld[] = [];
afterEach(() => {
  for (const w of worlds.splice(0)) w.remove();
});

describe('many sessions at once', () => {
  it(
    `${DELIVERY_FIXTURES.length} agents × ${SESSIONS_PER_AGENT} sessions × ${HOOKS_PER_SESSION} hooks started together: one block per session`,
    { timeout: 300_000 },
    async () => {
      const sessions: DeliveryScenario[] = [];
      const worldOf = new Map<DeliveryScenario, DeliveryWorld>();
      for (const fixture of DELIVERY_FIXTURES) {
        const w = createDeliveryWorld(fixture);
        worlds.push(w);
        for (let i = 0; i < SESSIONS_PER_AGENT; i++) {
          // A long deadline: this test is about the loop guard under contention, not about the clock.
          const scenario = { ...w.scenario('actionable', { AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '150000' }), sessionId: `${fixture.agent}-many-${i}` };
          sessions.push(scenario);
          worldOf.set(scenario, w);
        }
      }

      const wave = (hooksPerSession: number): Promise<Array<{ scenario: DeliveryScenario; reasons: Array<string | null> }>> =>
        Promise.all(
          sessions.map(async (scenario) => {
            const results = await Promise.all(Array.from({ length: hooksPerSession }, () => runScenario(scenario, { killAfterMs: 200_000 })));
            return { scenario, reasons: results.map((r) => expectAgentContract(scenario.agent, r)) };
          }),
        );

      for (const { scenario, reasons } of await wave(HOOKS_PER_SESSION)) {
        const delivered = reasons.filter((r) => r !== null);
        expect(delivered, `${scenario.sessionId}: ${delivered.length} blocks`).toHaveLength(1);
        const expected = await worldOf.get(scenario)!.expected(scenario);
        expect(delivered[0]).toBe(expected.message);
      }

      for (const w of worlds) {
        const states = readAllSessionStates(w.stateDir);
        expect(states).toHaveLength(SESSIONS_PER_AGENT);
        for (const { state } of states) expect(state.turns.map((t) => t.blocks)).toEqual([1]);
        // Locks released, atomic-write temp files renamed away. A granted block leaves its session's
        // block-outcome flag (`<state>.json.outcome`, settled at the next stop), never one of its own.
        const names = readdirSync(join(w.stateDir, 'sessions'));
        expect(names.filter((name) => !name.endsWith('.json') && !(name.endsWith('.json.outcome') && names.includes(name.slice(0, -'.outcome'.length))))).toEqual([]);
      }

      // The same turns end again (the agents' next stop, all sessions at once): nothing more is delivered.
      for (const { scenario, reasons } of await wave(1)) expect(reasons, scenario.sessionId).toEqual([null]);
      for (const w of worlds) for (const { state } of readAllSessionStates(w.stateDir)) expect(state.turns.map((t) => t.blocks)).toEqual([1]);
    },
  );
});
