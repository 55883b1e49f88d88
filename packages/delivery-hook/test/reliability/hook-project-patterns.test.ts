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
/** Exponential (nested and overlapping quantifiers) and high-degree polynomial backtracking. */
const REDOS = ['/(a+)+$/', '/(a|a?)+$/', '/(\\w*)*!x/', '/(.*a){12}$/'];
type Place = 'evidence' | 'error pattern';
const CASES: ReadonlyArray<readonly [string, Place]> = REDOS.flatMap((p) => [[p, 'evidence'] as const, [p, 'error pattern'] as const]);

/**
 * Every text string of the transcript (commands, outputs, messages) ends with {@link LONG}. For
 * evidence, the Read after the edits becomes a command (evidence is looked for after the change); for
 * error patterns, every tool result failed (a later success would settle the failures).
 */
function poison(value: unknown, place: Place, converted: Set<unknown>): unknown {
  if (typeof value === 'string') return value.includes(' ') ? `${value} ${LONG}` : value;
  if (Array.isArray(value)) return value.map((item) => poison(item, place, converted));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = poison(item, place, converted);
  if (place === 'error pattern' && out['type'] === 'tool_result') out['is_error'] = true;
  if (place === 'evidence' && out['type'] === 'tool_use' && out['name'] === 'Read') {
    converted.add(out['id']);
    return { ...out, name: 'Bash', input: { command: `cat notes.txt ${LONG}` } };
  }
  return out;
}

function poisonedScenario(w: DeliveryWorld, place: Place): DeliveryScenario {
  const base = w.scenario('actionable');
  const lines = readFileSync(base.transcriptPath, 'utf8').split('\n');
  const poisoned = join(w.root, 'poisoned.jsonl');
  const converted = new Set<unknown>();
  writeFileSync(poisoned, lines.map((line) => (line.trim() === '' ? line : JSON.stringify(poison(JSON.parse(line) as unknown, place, converted)))).join('\n'));
  return { ...base, transcriptPath: poisoned };
}

describe('regular expressions from the project file run in linear time', () => {
  it.each(CASES)('%s as %s: the Stop hook answers within its deadline', { timeout: 60_000 }, async (pattern, place) => {
    const w = (world = createDeliveryWorld(CLAUDE_FIXTURE));
    const scenario = poisonedScenario(w, place);
    const category = w.actionableConfig.categories![0]!;
    switch (place) {
      case 'evidence':
        // Category evidence is tested against every command; search commands against failed ones.
        w.writeConfig({ ...w.actionableConfig, categories: [{ ...category, evidence: [pattern] }], searchCommands: [pattern] });
        break;
      case 'error pattern':
        w.writeConfig({ ...w.actionableConfig, errorPatterns: [{ id: 'hostile', match: pattern, message: 'hostile pattern matched' }] });
        break;
    }
    const result = await runScenario(scenario, { killAfterMs: KILL_AFTER_MS });
    expect(result.signal, `wedged on ${pattern} (killed after ${KILL_AFTER_MS} ms); stderr: ${result.stderr}`).toBeNull();
    // A normal decision. `(a|a?)+$` matches the empty string at the end, so as evidence it proves the
    // action (all clear); every other pattern cannot match, so the turn is blocked with the action.
    const delivered = expectAgentContract('claude', result);
    if (place === 'evidence' && pattern === '/(a|a?)+$/') expect(delivered).toBeNull();
    else expect(delivered).toContain(category.action);
  });

});
