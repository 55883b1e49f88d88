import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createDeliveryWorld, type DeliveryScenario, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE, GEMINI_FIXTURE } from './test-support/delivery-fixtures.ts';
import { deliverThroughHook } from './test-support/hook-route-adapter.ts';

// Issue 11: a user prompt that happens to start with our prefix is a prompt. Before any delivery is
// recorded (a session's first turn, or a lost state directory) the hook recognises our messages by
// the whole structure `composeMessage` renders with the configured texts, never by the prefix alone.
// Real bin, real git repositories, recorded transcripts with the prompt retyped.

const TYPED = '[agent-checkpoint] please review X';

let world: DeliveryWorld | undefined;
afterEach(() => {
  world?.remove();
  world = undefined;
});

/** The recorded turn, with its prompt `from` retyped as `TYPED` in the transcript (JSON string `from`). */
function retyped(scenario: DeliveryScenario, from: string): void {
  const text = readFileSync(scenario.transcriptPath, 'utf8');
  const encoded = JSON.stringify(from);
  expect(text, 'fixture precondition: the prompt is in the transcript').toContain(encoded);
  writeFileSync(scenario.transcriptPath, text.replaceAll(encoded, JSON.stringify(TYPED)));
}

describe('a first prompt that starts with our prefix (no delivery recorded)', () => {
  it('Gemini: the prompt opens the turn and the turn gets its checkpoint', async () => {
    world = createDeliveryWorld(GEMINI_FIXTURE);
    const base = world.scenario('actionable');
    retyped(base, 'Please do the task.');
    // Gemini repeats the prompt in the AfterAgent payload.
    const scenario = { ...base, hint: { ...base.hint, prompt: TYPED } };
    const expected = await world.expected(scenario);
    expect(expected).toMatchObject({ mode: 'actionable', timeline: { prompt: TYPED, checkpointsDelivered: 0 } });
    const delivered = await deliverThroughHook(scenario);
    expect(delivered).toBe(expected.message);
  });

  it('Claude: a plain user message with our prefix is a prompt; the turn gets its checkpoint', async () => {
    world = createDeliveryWorld(CLAUDE_FIXTURE);
    const scenario = world.scenario('actionable');
    retyped(scenario, 'do the task');
    const expected = await world.expected(scenario);
    expect(expected).toMatchObject({ mode: 'actionable', timeline: { prompt: TYPED, checkpointsDelivered: 0 } });
    const delivered = await deliverThroughHook(scenario);
    expect(delivered).toBe(expected.message);
  });
});

describe('our own message without a delivery record (state directory lost)', () => {
  it('Gemini, configured texts: the delivered reason is recognised by its structure and stops a second block', async () => {
    world = createDeliveryWorld(GEMINI_FIXTURE);
    world.writeConfig({
      ...world.actionableConfig,
      messages: { header: 'Hold on:', reminder: 'Do these first.', escapeHatch: 'Off switch for {sessionId}: `{offCommand}`' },
    });
    const first = await deliverThroughHook(world.scenario('actionable'));
    expect(first).toMatch(/^\[agent-checkpoint\] Hold on:[\s\S]*Off switch for c16cc519/);
    const transcript = world.scenario('actionable').transcriptPath;
    // Gemini records the reason as an ordinary user message (re-wrapped here, as a CLI may).
    const rewrapped = (first ?? '').replaceAll('\n\n', '\n');
    appendFileSync(transcript, `${JSON.stringify({ id: 'b1a7e0c2-0000-4000-8000-000000000002', timestamp: new Date().toISOString(), type: 'user', content: [{ text: rewrapped }] })}\n`);
    rmSync(world.stateDir, { recursive: true, force: true });
    expect(await deliverThroughHook(world.scenario('repeat-stop'))).toBeNull();
  });
});
