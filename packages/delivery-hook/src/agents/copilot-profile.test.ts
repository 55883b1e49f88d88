import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { COPILOT_FIXTURE } from '../test-support/delivery-fixtures.ts';
import { FIXTURES_DIR } from '../test-support/recorded-payloads.ts';
import { parseHookOutput, runHookBundle } from '../test-support/run-hook-bundle.ts';
import { copilotProfile, readCopilotAgentStopPayload } from './copilot-profile.ts';

// Copilot CLI 1.0.102's agentStop quirks, through the real bundled hook on real git repositories with
// its recorded session logs: a subagent's stop, and a log that lags behind the hook.

const EDIT_OBSERVATION = 'Files were edited without being read first this turn';
const recorded = (name: string): string => join(FIXTURES_DIR, 'copilot/1.0.102', name);
const payloads = (name: string): Record<string, unknown>[] =>
  readFileSync(recorded(name), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

let world: DeliveryWorld | undefined;
afterEach(() => {
  world?.remove();
  world = undefined;
});

/** A world on the edit-without-read recording, its log at `<copilot home>/session-state/<id>/events.jsonl`. */
function open(): { world: DeliveryWorld; transcript: string; lines: string[]; payload: Record<string, unknown> } {
  world = createDeliveryWorld(COPILOT_FIXTURE);
  world.writeConfig(world.actionableConfig);
  const transcript = world.scenario('actionable').transcriptPath;
  const lines = readFileSync(transcript, 'utf8').split('\n').filter((l) => l !== '');
  const recordedStop = (payloads('recorded/edit-without-read.hook-payloads.jsonl')[0]?.['payload'] ?? {}) as Record<string, unknown>;
  const payload = { ...recordedStop, sessionId: COPILOT_FIXTURE.sessionId, cwd: world.repo, transcriptPath: transcript };
  return { world, transcript, lines, payload };
}

async function stop(w: DeliveryWorld, payload: Record<string, unknown>, env: Record<string, string> = {}) {
  const scenario = w.scenario('actionable', env);
  const result = await runHookBundle({ args: ['copilot'], stdin: JSON.stringify(payload), env: scenario.env, cwd: w.repo });
  expect(result.signal, result.stderr).toBeNull();
  expect(result.code, result.stderr).toBe(0);
  return { ...parseHookOutput('copilot', result.stdout), stderr: result.stderr, ms: result.ms };
}

describe('Copilot CLI agentStop payload', () => {
  it("reads a subagent's stop (its own sessionId, the parent's log) as no turn end of the session", () => {
    const [subagentStop, parentStop] = payloads('subagent-task.hook-payloads.jsonl');
    const sub = readCopilotAgentStopPayload(subagentStop);
    expect(sub).toMatchObject({ kind: 'event', event: { isTurnEnd: false, eventName: 'agentStop of the general-purpose subagent 3fb4d0ca-952b-4bb9-8d3d-6fc6c82abaa0' } });
    expect(readCopilotAgentStopPayload(parentStop)).toMatchObject({ kind: 'event', event: { isTurnEnd: true, sessionId: '31ca2fd0-a00e-4966-9a15-f10ea5b261cd' } });
    // Without the subagent fields, the session id that is not the log's directory still tells.
    const { agentId: _a, agentType: _t, parentAgentId: _p, ...bare } = subagentStop ?? {};
    expect(readCopilotAgentStopPayload(bare)).toMatchObject({ kind: 'event', event: { isTurnEnd: false } });
  });
});

describe('Copilot CLI context answers', () => {
  it('put the context at the top level, where 1.0.102 reads it (not in hookSpecificOutput, which it ignores)', () => {
    expect(JSON.parse(copilotProfile.encodeSessionStart('ctx'))).toEqual({ additionalContext: 'ctx' });
    expect(JSON.parse(copilotProfile.encodePromptSubmit('ctx'))).toEqual({ additionalContext: 'ctx' });
  });
});

describe('Copilot CLI agentStop through the bundled hook', () => {
  it("a subagent's stop passes silently and leaves the parent's block budget whole", async () => {
    const { world: w, payload } = open();
    const subagentStop = { ...payload, sessionId: 'a-subagent-session', agentId: 'a-subagent-session', agentType: 'general-purpose', parentAgentId: COPILOT_FIXTURE.sessionId };
    const sub = await stop(w, subagentStop);
    expect([sub.reason, sub.systemMessage]).toEqual([null, undefined]);
    const sessions = join(w.scenario('actionable').stateDir, 'sessions');
    expect(existsSync(sessions) ? readdirSync(sessions) : []).toEqual([]);
    // The parent's stop of the same turn still gets its checkpoint.
    const parent = await stop(w, payload);
    expect(parent.reason).toContain(EDIT_OBSERVATION);
    // Only the parent session has state (its block, and the block's pending outcome flag).
    expect(readdirSync(sessions).every((f) => f.startsWith(`copilot-${COPILOT_FIXTURE.sessionId}.json`))).toBe(true);
  });

  it('waits for its own hook.start before reading a log that lags behind the stop, then decides on the whole turn', async () => {
    const { world: w, transcript, lines, payload } = open();
    // The log as it may stand when agentStop fires: the turn's prompt only; the rest arrives later.
    const prompt = lines.findIndex((l) => l.includes('"type":"user.message"'));
    writeFileSync(transcript, `${lines.slice(0, prompt + 1).join('\n')}\n`);
    const late = setTimeout(() => appendFileSync(transcript, `${lines.slice(prompt + 1).join('\n')}\n`), 600);
    try {
      const result = await stop(w, payload);
      expect(result.reason, result.stderr).toContain(EDIT_OBSERVATION);
      expect(result.ms).toBeGreaterThanOrEqual(600);
      expect(result.stderr).not.toContain('had not caught up');
    } finally {
      clearTimeout(late);
    }
  });

  it('says so on stderr when its hook.start never appears, and decides on what the log holds within the deadline', async () => {
    const { world: w, transcript, lines, payload } = open();
    writeFileSync(transcript, `${lines.filter((l) => !l.includes('"type":"hook.')).join('\n')}\n`);
    const result = await stop(w, payload, { AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '3000' });
    expect(result.stderr).toMatch(/^agent-checkpoint: .*had not caught up with this stop/m);
    // A decision, not the deadline's pass: the wait left the read, git and the claim their time.
    expect(result.reason).toContain(EDIT_OBSERVATION);
  });
});
