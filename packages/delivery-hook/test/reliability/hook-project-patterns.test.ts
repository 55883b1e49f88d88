import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryScenario, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE } from '../../src/test-support/delivery-fixtures.ts';
import { expectAgentContract, runScenario } from './support.ts';

// Issue 23, class "a regular expression from a project file backtracks": evidence and error patterns
// written `/…/` in `.agent-checkpoint.json` come with the repository. On JavaScript's backtracking
// RegExp, `/(a+)+$/` against a command or output of 50 000 `a`s and a `!` is a synchronous match no
// timer interrupts: the Stop hook never answered. They now run on RE2 (linear time). Each run is the
// real bin with a hard deadline.

let world: DeliveryWorld | undefined;
afterEach(() => {
  world?.remove();
  world = undefined;
});

/** Far below what a backtracking match of these patterns on the poisoned text takes (hours). */
const KILL_AFTER_MS = 20_000;
const LONG = `${'a'.repeat(50_000)}!`;
const REDOS = ['/(a+)+$/', '/(a|aa)+$/', '/^(a|a?)+$/', '/(\\w*)*!x/'];

/** Every text string of the transcript (commands, outputs, messages) ends with {@link LONG}; every tool result failed. */
function poison(value: unknown): unknown {
  if (typeof value === 'string') return value.includes(' ') ? `${value} ${LONG}` : value;
  if (Array.isArray(value)) return value.map(poison);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = poison(item);
  if (out['type'] === 'tool_result') out['is_error'] = true;
  return out;
}

function poisonedScenario(w: DeliveryWorld): DeliveryScenario {
  const base = w.scenario('actionable');
  const lines = readFileSync(base.transcriptPath, 'utf8').split('\n');
  const poisoned = join(w.root, 'poisoned.jsonl');
  writeFileSync(poisoned, lines.map((line) => (line.trim() === '' ? line : JSON.stringify(poison(JSON.parse(line) as unknown)))).join('\n'));
  return { ...base, transcriptPath: poisoned };
}

describe('regular expressions from the project file run in linear time', () => {
  it.each(REDOS)('%s as evidence and as an error pattern: the Stop hook answers within its deadline', { timeout: 60_000 }, async (pattern) => {
    const w = (world = createDeliveryWorld(CLAUDE_FIXTURE));
    const scenario = poisonedScenario(w);
    const category = w.actionableConfig.categories![0]!;
    w.writeConfig({
      ...w.actionableConfig,
      categories: [{ ...category, evidence: [pattern] }],
      errorPatterns: [{ id: 'hostile', match: pattern, message: 'hostile pattern matched' }],
      searchCommands: [pattern],
    });
    const result = await runScenario(scenario, { killAfterMs: KILL_AFTER_MS });
    expect(result.signal, `wedged on ${pattern} (killed after ${KILL_AFTER_MS} ms); stderr: ${result.stderr}`).toBeNull();
    // A normal decision: the category's evidence never ran, so the turn is blocked with its action.
    const delivered = expectAgentContract('claude', result);
    expect(delivered).toContain(category.action);
  });

});
