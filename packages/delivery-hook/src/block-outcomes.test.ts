import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createDeliveryWorld, type DeliveryScenario, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStopPayload } from './test-support/build-stop-payload.ts';
import { CLAUDE_FIXTURE, GEMINI_FIXTURE } from './test-support/delivery-fixtures.ts';
import { deliverThroughHook } from './test-support/hook-route-adapter.ts';
import { parseHookStdout, runHookBundle } from './test-support/run-hook-bundle.ts';

// Block outcomes through the real bundled hook on a recorded Claude Code turn: the block, then what the
// next stop shows, then `report`.

let world: DeliveryWorld | undefined;
afterEach(() => {
  world?.remove();
  world = undefined;
});

const SESSION = CLAUDE_FIXTURE.sessionId;
const PROMPT_ID = CLAUDE_FIXTURE.hint.turnId!;
const CWD_ENTRY = { isSidechain: false, userType: 'external', entrypoint: 'sdk-cli', sessionId: SESSION, version: '2.1.330', gitBranch: 'main' };

/** Append Claude Code entries to the session's transcript (the shapes of the recorded 2.1.330 files). */
class ClaudeTurn {
  private parent: string | undefined;
  private readonly path: string;
  private readonly cwd: string;
  private readonly promptId: string;
  constructor(path: string, cwd: string, promptId: string) {
    this.path = path;
    this.cwd = cwd;
    this.promptId = promptId;
  }
  private add(entry: Record<string, unknown>): void {
    const uuid = randomUUID();
    appendFileSync(this.path, `${JSON.stringify({ parentUuid: this.parent ?? null, ...CWD_ENTRY, cwd: this.cwd, promptId: this.promptId, ...entry, uuid, timestamp: new Date().toISOString() })}\n`);
    this.parent = uuid;
  }
  prompt(text: string): this {
    this.add({ type: 'user', message: { role: 'user', content: text } });
    return this;
  }
  feedback(message: string): this {
    this.add({ type: 'user', message: { role: 'user', content: `Stop hook feedback:\n${message}` }, isMeta: true });
    return this;
  }
  bash(command: string, output: string, isError = false): this {
    const id = `toolu_${randomUUID().replace(/-/g, '')}`;
    this.add({ type: 'assistant', message: { id: `msg_${id}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }], stop_reason: 'tool_use' } });
    this.add({ type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: output, is_error: isError }] } });
    return this;
  }
  say(text: string): this {
    this.add({ type: 'assistant', message: { id: `msg_${randomUUID()}`, type: 'message', role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn' } });
    return this;
  }
}

async function stop(scenario: DeliveryScenario, options: { stopHookActive: boolean; turnId?: string; last: string }): Promise<string | null> {
  const payload = buildStopPayload({ ...scenario, stopHookActive: options.stopHookActive, hint: { turnId: options.turnId ?? PROMPT_ID, lastAssistantMessage: options.last } });
  const result = await runHookBundle({ args: ['claude'], stdin: JSON.stringify(payload), env: scenario.env, cwd: scenario.cwd });
  expect(result.code, result.stderr).toBe(0);
  return parseHookStdout('claude', result.stdout);
}

interface Counts {
  blocks: number;
  outcomes: Record<string, number>;
  precision?: number;
}
async function report(w: DeliveryWorld): Promise<{ total: Counts; pending: number; byRule: Record<string, Counts>; byCategory: Record<string, Counts> }> {
  const scenario = w.scenario('actionable');
  const result = await runHookBundle({ args: ['report', '--json'], env: scenario.env, cwd: scenario.cwd });
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { blockOutcomes: Awaited<ReturnType<typeof report>> }).blockOutcomes;
}

/** The first stop of the recorded turn blocks (the `conformance` category's `conformance-check` not run). */
async function block(): Promise<{ w: DeliveryWorld; scenario: DeliveryScenario; message: string }> {
  world = createDeliveryWorld(CLAUDE_FIXTURE);
  const scenario = world.scenario('actionable');
  const message = await deliverThroughHook(scenario);
  expect(message).not.toBeNull();
  expect((await report(world)).pending).toBe(1);
  return { w: world, scenario, message: message! };
}

describe('block outcomes through the real hook', () => {
  it('acted on: the continuation runs the required check; report counts it per category and rule', async () => {
    const { w, scenario, message } = await block();
    new ClaudeTurn(scenario.transcriptPath, scenario.cwd, PROMPT_ID).feedback(message).bash('conformance-check', 'ok').say('Ran the check.');
    expect(await stop(scenario, { stopHookActive: true, last: 'Ran the check.' })).toBeNull();
    const r = await report(w);
    expect(r.pending).toBe(0);
    expect(r.total).toMatchObject({ blocks: 1, outcomes: { 'acted-on': 1, disputed: 0, ignored: 0, 'switched-off': 0 }, precision: 1 });
    expect(r.byCategory['conformance']).toMatchObject({ blocks: 1, outcomes: { 'acted-on': 1 } });
    expect(r.byRule['conformance']).toMatchObject({ blocks: 1, outcomes: { 'acted-on': 1 } });
    // The text report says the same, through the terminal sanitiser.
    const text = await runHookBundle({ args: ['report'], env: scenario.env, cwd: scenario.cwd });
    expect(text.stdout).toContain('Block outcomes: 1 block');
    expect(text.stdout).toContain('  conformance: 1 block: acted on 1, disputed 0, ignored 0, switched off 0, unknown 0; precision 100 %');
  });

  it('disputed: the agent stops again in the same turn without running it', async () => {
    const { w, scenario, message } = await block();
    new ClaudeTurn(scenario.transcriptPath, scenario.cwd, PROMPT_ID).feedback(message).say('The check is not needed here.');
    expect(await stop(scenario, { stopHookActive: true, last: 'The check is not needed here.' })).toBeNull();
    expect((await report(w)).total).toMatchObject({ blocks: 1, outcomes: { 'acted-on': 0, disputed: 1 }, precision: 0 });
  });

  it('ignored: the next stop is of a new turn that did nothing about it', async () => {
    const { w, scenario } = await block();
    const next = randomUUID();
    new ClaudeTurn(scenario.transcriptPath, scenario.cwd, next).prompt('something else').bash('ls', 'notes.txt').say('Listed.');
    await stop(scenario, { stopHookActive: false, turnId: next, last: 'Listed.' });
    const r = await report(w);
    expect(r.total.outcomes).toMatchObject({ ignored: 1, 'acted-on': 0, disputed: 0 });
    expect(r.byRule['conformance']?.outcomes['ignored']).toBe(1);
  });

  it('switched off: off --session after the block settles it, and the next stop does not count it again', async () => {
    const { w, scenario, message } = await block();
    const off = await runHookBundle({ args: ['off', '--session', SESSION], env: scenario.env, cwd: scenario.cwd });
    expect(off.code, off.stderr).toBe(0);
    expect((await report(w)).total).toMatchObject({ blocks: 1, outcomes: { 'switched-off': 1 } });
    new ClaudeTurn(scenario.transcriptPath, scenario.cwd, PROMPT_ID).feedback(message).bash('conformance-check', 'ok').say('Ran the check.');
    await stop(scenario, { stopHookActive: true, last: 'Ran the check.' });
    expect((await report(w)).total).toMatchObject({ blocks: 1, outcomes: { 'switched-off': 1, 'acted-on': 0 } });
  });

  it('off --project settles the pending blocks of this project only', async () => {
    const { w, scenario } = await block();
    const off = await runHookBundle({ args: ['off', '--project', '--cwd', scenario.cwd], env: scenario.env, cwd: scenario.cwd });
    expect(off.code, off.stderr).toBe(0);
    expect((await report(w)).total.outcomes['switched-off']).toBe(1);
  });

  it('Gemini: the AfterAgent after the deny (stop_hook_active false, same turn) settles it in the pipeline', async () => {
    world = createDeliveryWorld(GEMINI_FIXTURE);
    const w = world;
    const scenario = w.scenario('actionable');
    const reason = await deliverThroughHook(scenario);
    expect(reason).not.toBeNull();
    // What Gemini records next: the deny reason as a user message, then the model's shell call.
    const id = `run_shell_command__run_shell_command_${Date.now()}_0`;
    const response = { functionResponse: { id, name: 'run_shell_command', response: { output: 'Output: ok\nProcess Group PGID: 1' } } };
    const now = (): string => new Date().toISOString();
    const lines = [
      { id: randomUUID(), timestamp: now(), type: 'user', content: [{ text: reason }] },
      {
        id: randomUUID(),
        timestamp: now(),
        type: 'gemini',
        content: '',
        toolCalls: [{ id, name: 'run_shell_command', args: { command: 'conformance-check' }, result: [response], status: 'success', timestamp: now() }],
      },
      { id: randomUUID(), timestamp: now(), type: 'user', content: [response] },
      { id: randomUUID(), timestamp: now(), type: 'gemini', content: 'Ran the check.' },
    ];
    appendFileSync(scenario.transcriptPath, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    expect(await deliverThroughHook(w.scenario('repeat-stop'))).toBeNull();
    const r = await report(w);
    expect(r.pending).toBe(0);
    expect(r.total.outcomes).toMatchObject({ 'acted-on': 1, disputed: 0, ignored: 0 });
  });
});
