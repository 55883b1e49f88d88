import { readFileSync } from 'node:fs';
import { AGENT_IDS } from '@agent-checkpoint/core';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildStopPayload } from './test-support/build-stop-payload.ts';
import { createHookSandbox, type HookSandbox } from './test-support/hook-sandbox.ts';
import { fixturePayload } from './test-support/recorded-payloads.ts';
import { HOOK_BUNDLE, parseHookStdout, runHookBundle, type HookProcessResult } from './test-support/run-hook-bundle.ts';

// Contract tests of the bundled bin as a real process with real stdin: whatever comes in, the exit
// code is 0 and stdout is empty or exactly one JSON object in the agent's format.

// Every agent: each one's turn-end mode is a process of this bin with the same contract.
const AGENTS = AGENT_IDS;

let sandbox: HookSandbox;
beforeEach(() => {
  sandbox = createHookSandbox();
});
afterEach(() => {
  sandbox.remove();
});

function expectPass(result: HookProcessResult): void {
  expect(result.signal).toBeNull();
  expect(result.code).toBe(0);
  expect(result.stdout).toBe('');
}

describe('the bundle', () => {
  it('is one self-contained ESM file with a node shebang', () => {
    const text = readFileSync(HOOK_BUNDLE, 'utf8');
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    // No runtime resolution of workspace or npm packages: everything is inlined.
    expect(text).not.toMatch(/from\s*["']@agent-checkpoint\//);
    expect(text).not.toMatch(/from\s*["'](zod|proper-lockfile|write-file-atomic)["']/);
  });
});

describe('invalid input passes silently, exit 0', () => {
  it.each(AGENTS)('%s: not JSON, JSON array, wrong shape, empty', async (agent) => {
    for (const stdin of ['not json', '[{"hook_event_name":"Stop"}]', '{"hook_event_name":"Stop","stop_hook_active":"nope"}', '', '{"session_id":']) {
      const result = await runHookBundle({ args: [agent], stdin, env: sandbox.env });
      expectPass(result);
      expect(result.stderr).toMatch(/^agent-checkpoint: /m);
    }
  });

  it('a huge stdin is cut at the size cap, not buffered whole', async () => {
    const huge = Buffer.alloc(24 * 1024 * 1024, 0x61);
    const result = await runHookBundle({ args: ['claude'], stdin: huge, env: sandbox.env });
    expectPass(result);
    expect(result.stderr).toMatch(/size cap/);
  });

  it('a stdin that never closes cannot wedge the agent', async () => {
    const result = await runHookBundle({
      args: ['gemini'],
      stdin: { keepOpen: '{"session_id":"s1","hook_event_name":"AfterAgent","prompt":' },
      env: { ...sandbox.env, AGENT_CHECKPOINT_STDIN_TIMEOUT_MS: '300' },
      killAfterMs: 20_000,
    });
    expectPass(result);
    expect(result.ms).toBeLessThan(10_000);
    expect(result.stderr).toMatch(/did not close in time/);
  });

  it('a stdin that never closes, with the default limits, still ends in bounded time', async () => {
    const result = await runHookBundle({ args: ['codex'], stdin: { keepOpen: '' }, env: sandbox.env, killAfterMs: 20_000 });
    expectPass(result);
    expect(result.ms).toBeLessThan(15_000);
  });

  it('a complete payload on a stdin left open is still read (after the stdin timeout)', async () => {
    const result = await runHookBundle({
      args: ['gemini', '--debug'],
      stdin: { keepOpen: fixturePayload('gemini-before-agent') },
      env: { ...sandbox.env, AGENT_CHECKPOINT_STDIN_TIMEOUT_MS: '300' },
    });
    expectPass(result);
    expect(result.stderr).toMatch(/not-turn-end/);
  });

  it('an unknown agent, a missing agent and `hook` without an agent all exit 0 with nothing on stdout', async () => {
    for (const args of [['cursor'], [], ['hook'], ['hook', 'nope'], ['--bogus']]) {
      const result = await runHookBundle({ args, stdin: fixturePayload('claude-stop-first'), env: sandbox.env });
      expectPass(result);
      expect(result.stderr).toMatch(/unknown agent/);
      // The line names every agent the bin knows, so a user sees what to pass.
      expect(result.stderr).toContain(`expected ${AGENT_IDS.slice(0, -1).join(', ')} or ${AGENT_IDS.at(-1) ?? ''}.`);
    }
  });
});

describe('events that are not the turn end pass', () => {
  it('Gemini BeforeAgent, Claude SubagentStop, Codex PostToolUse', async () => {
    const cases: Array<[string, string]> = [
      ['gemini', fixturePayload('gemini-before-agent')],
      ['claude', JSON.stringify({ ...JSON.parse(fixturePayload('claude-stop-first')), hook_event_name: 'SubagentStop', agent_id: 'a1' })],
      ['codex', JSON.stringify({ session_id: 's', turn_id: 't', hook_event_name: 'PostToolUse', tool_name: 'Bash' })],
    ];
    for (const [agent, stdin] of cases) {
      const result = await runHookBundle({ args: [agent, '--debug'], stdin, env: sandbox.env });
      expectPass(result);
      expect(result.stderr).toMatch(/not-turn-end/);
    }
  });

  it('Claude with a background task still running passes', async () => {
    const result = await runHookBundle({ args: ['claude', '--debug'], stdin: fixturePayload('claude-stop-with-background-task'), env: sandbox.env });
    expectPass(result);
    expect(result.stderr).toMatch(/background-tasks/);
  });
});

describe('property: any stdin → exit 0 and stdout empty or one JSON object in the agent shape', () => {
  it('holds for arbitrary JSON values, mutated payloads and arbitrary text', { timeout: 180_000 }, async () => {
    const payloadish = fc.record(
      {
        hook_event_name: fc.constantFrom('Stop', 'AfterAgent', 'SubagentStop', 'BeforeAgent', 42, null),
        session_id: fc.oneof(fc.string(), fc.constant('../../etc'), fc.integer()),
        transcript_path: fc.oneof(fc.constant('/dev/null'), fc.constant('/'), fc.string(), fc.constant(null)),
        cwd: fc.oneof(fc.constant('/'), fc.string(), fc.constant('/nonexistent/dir')),
        stop_hook_active: fc.oneof(fc.boolean(), fc.string(), fc.constant(null)),
        prompt_id: fc.string(),
        turn_id: fc.string(),
        prompt: fc.string(),
      },
      { requiredKeys: [] },
    );
    const input = fc.oneof(
      payloadish.map((p) => JSON.stringify(p)),
      fc.json(),
      fc.string({ unit: 'binary' }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...AGENTS), input, async (agent, stdin) => {
        const result = await runHookBundle({ args: [agent], stdin, env: { ...sandbox.env, AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '5000' } });
        expect(result.code).toBe(0);
        expect(result.signal).toBeNull();
        parseHookStdout(agent, result.stdout);
      }),
      { numRuns: 30 },
    );
  });
});

describe('stop_hook_active: the escape hatch passes without reading anything', () => {
  it.each(AGENTS)('%s: passes at once and needs no git', async (agent) => {
    const payload = buildStopPayload({
      agent,
      sessionId: 'sess-escape',
      transcriptPath: '/nonexistent/transcript.jsonl',
      cwd: sandbox.root,
      hint: { turnId: 'turn-1', prompt: 'do it' },
      stopHookActive: true,
    });
    // PATH without git: if the hook tried to run git it could not; it must not even try.
    const result = await runHookBundle({ args: [agent, '--debug'], stdin: JSON.stringify(payload), env: { ...sandbox.env, PATH: '/nonexistent' } });
    expectPass(result);
    expect(result.stderr).toMatch(/stop-hook-active/);
  });
});
