import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../mock/request-log.ts';
import { branch, say, shell, tools, whenLastUserTextStartsWith, type Scenario } from '../mock/scenario.ts';
import { shellQuote } from '../mock/native-tool-calls.ts';
import { CHECKPOINT_PREFIX, type AgentSession, type PromptOptions, type SessionOptions } from './agent-session.ts';
import { findMarkedProcesses, type ProcessResult } from './process-group.ts';

/** A headless session as the shared tests drive it. */
export interface HeadlessSession extends AgentSession {
  readonly sessionId: string | undefined;
  prompt(text: string, options?: PromptOptions): Promise<ProcessResult>;
}

/** What differs between the agents; everything else is asserted identically for all of them. */
export interface HeadlessAgentSpec<S extends HeadlessSession> {
  readonly start: (options: SessionOptions) => Promise<S>;
  /** Path of the main-turn model requests (query string excluded). */
  readonly apiPath: string;
  readonly userAgent: RegExp;
  /** The payload's `hook_event_name`; null for an agent that sends none (Copilot CLI). */
  readonly stopEvent: 'Stop' | 'AfterAgent' | 'turn_end' | null;
  /** Where the payload names the session and the transcript (default `session_id`, `transcript_path`). */
  readonly payloadKeys?: { readonly sessionId: string; readonly transcriptPath: string };
  /** `stop_hook_active` on the stop that follows a block (Gemini: false after a tool call). */
  readonly stopHookActiveAfterBlock: boolean;
  /** True when the request body carries the reason exactly in the agent's own wrapping. */
  readonly carriesBlockReason: (body: unknown, reason: string) => boolean;
  /** Extra per-agent checks after a completed session (e.g. Codex notify). */
  readonly afterRun?: (session: S, completedTurns: number) => Promise<void>;
}

export const SKIP_REAL_CLIS = process.env['AGENT_CHECKPOINT_E2E_SKIP_CLIS'] === '1';

const REASON = `${CHECKPOINT_PREFIX}run the tests`;

/**
 * Runs `fn` with a fresh session, disposes it, and then checks the disposal really removed every
 * process carrying the session's marker and the whole temp workspace.
 */
export async function withCheckedSession<S extends AgentSession>(start: Promise<S>, fn: (session: S) => Promise<void>): Promise<void> {
  const session = await start;
  try {
    await fn(session);
  } finally {
    await session.dispose();
  }
  expect(findMarkedProcesses(session.workspace.runId), 'processes left after dispose').toEqual([]);
  expect(existsSync(session.workspace.root), 'temp workspace left after dispose').toBe(process.env['AGENT_CHECKPOINT_E2E_KEEP'] === '1');
}

function expectCleanRun(run: ProcessResult | undefined): void {
  expect(run, 'CLI run').toBeDefined();
  expect(run?.timedOut, `timed out; stderr:\n${run?.stderr ?? ''}`).toBe(false);
  expect(run?.exitCode, `exit code; stderr:\n${run?.stderr ?? ''}`).toBe(0);
}

function expectOnlyScriptedTraffic(requests: readonly LoggedRequest[], spec: HeadlessAgentSpec<HeadlessSession>): LoggedRequest[] {
  const problems = requests.filter((r) => !['step', 'side', 'title'].includes(r.answer) || r.missingTools !== undefined);
  expect(problems.map((r) => `${r.method} ${r.url}: ${r.answer} ${r.missingTools?.join(',') ?? ''}`)).toEqual([]);
  const steps = requests.filter((r) => r.answer === 'step');
  for (const r of steps) {
    expect(r.url.split('?')[0]).toBe(spec.apiPath);
    expect(String(r.headers['user-agent'])).toMatch(spec.userAgent);
  }
  return steps;
}

/**
 * The self-tests every headless runner must pass against its real CLI: offline text turns with a
 * resumed second prompt, a tool call round trip, and a block that reaches the model once.
 */
export function defineHeadlessAgentTests<S extends HeadlessSession>(name: string, spec: HeadlessAgentSpec<S>): void {
  const generic = spec as unknown as HeadlessAgentSpec<HeadlessSession>;

  describe.skipIf(SKIP_REAL_CLIS)(`${name} (real CLI against the mock)`, () => {
    it('runs a text-only turn offline, resumes the session for a second prompt, and all-done stops stay silent', async () => {
      const scenario: Scenario = { name: 'two-texts', steps: [say('e2e-hello from the mock'), say('e2e-second answer')] };
      await withCheckedSession(spec.start({ scenario, files: { 'README.md': '# e2e\n' } }), async (session) => {
        expectCleanRun(await session.prompt('Say hello.'));
        expectCleanRun(await session.prompt('Say more.'));

        const steps = expectOnlyScriptedTraffic(session.requests, generic);
        // Exactly one model request per prompt: nothing blocked, so nothing more was asked.
        expect(steps.map((r) => r.stepIndex)).toEqual([0, 1]);
        expect(JSON.stringify(steps[1]?.body), 'the resumed request carries the first answer').toContain('e2e-hello from the mock');
        expect(steps[1]?.view?.lastUserText).toBe('Say more.');

        const hooks = session.hookInvocations();
        expect(hooks.map((h) => [h.event, h.response.action])).toEqual([
          [spec.stopEvent, 'pass'],
          [spec.stopEvent, 'pass'],
        ]);
        // One conversation file, named by every hook call, listed first by the runner. (Gemini
        // may leave an extra header-only file when the resume starts in a later minute.)
        const transcripts = session.transcriptPaths();
        expect(transcripts.length).toBeGreaterThanOrEqual(1);
        const keys = spec.payloadKeys ?? { sessionId: 'session_id', transcriptPath: 'transcript_path' };
        for (const h of hooks) {
          expect(h.payload?.[keys.sessionId]).toBe(session.sessionId);
          expect(h.payload?.[keys.transcriptPath]).toBe(transcripts[0]);
          expect(h.cwd).toBe(session.workspace.repo);
        }
        const transcript = readFileSync(transcripts[0] ?? '', 'utf8');
        expect(transcript).toContain('e2e-hello from the mock');
        expect(transcript).toContain('e2e-second answer');
        await spec.afterRun?.(session, 2);
      });
    });

    it('round-trips a tool call; a block reason reaches the model once and the following stop passes', async () => {
      const scenario: Scenario = {
        name: 'tool-and-block',
        steps: [
          tools(shell('echo e2e-tool-output')),
          say('First pass done.'),
          branch([whenLastUserTextStartsWith(REASON, tools(shell('echo e2e-after-block')))], say('No checkpoint seen.')),
          say('Finished after the checkpoint.'),
        ],
      };
      const hook = { kind: 'probe', blockOnce: { reason: REASON } } as const;
      await withCheckedSession(spec.start({ scenario, files: { 'README.md': '# e2e\n' }, hook }), async (session) => {
        expectCleanRun(await session.prompt('Run the probe command.'));

        const steps = expectOnlyScriptedTraffic(session.requests, generic);
        expect(steps.map((r) => [r.stepIndex, r.branch])).toEqual([
          [0, undefined],
          [1, undefined],
          [2, 0],
          [3, undefined],
        ]);
        expect(JSON.stringify(steps[1]?.body), 'the shell output came back to the model').toContain('e2e-tool-output');

        const afterBlock = steps[2];
        expect(afterBlock?.view?.lastUserText).toBe(REASON);
        expect(spec.carriesBlockReason(afterBlock?.body, REASON), `block reason in the request:\n${JSON.stringify(afterBlock?.body).slice(-1500)}`).toBe(true);
        expect(JSON.stringify(steps[3]?.body)).toContain('e2e-after-block');

        const hooks = session.hookInvocations();
        expect(hooks.map((h) => h.response.action)).toEqual(['block', 'pass']);
        expect(hooks.map((h) => h.payload?.['stop_hook_active'])).toEqual([false, spec.stopHookActiveAfterBlock]);
        await spec.afterRun?.(session, 1);
      });
    });

    it('relays an arbitrary hook command through the probe: its block reaches the model, its pass ends the turn', async () => {
      const scenario: Scenario = {
        name: 'command-hook',
        steps: [say('All done.'), branch([whenLastUserTextStartsWith(`${CHECKPOINT_PREFIX}from a command`, say('Acknowledged.'))], say('No checkpoint seen.'))],
      };
      // A stand-in for the real hook: blocks once (marker file), with the JSON every agent accepts.
      const start = spec.start({ scenario, files: { 'README.md': '# e2e\n' }, hook: { kind: 'command', command: 'true' } });
      await withCheckedSession(start, async (session) => {
        const marker = path.join(session.workspace.logs, 'blocked-once');
        const reason = `${CHECKPOINT_PREFIX}from a command`;
        const command = `cat >/dev/null; if [ -e ${shellQuote(marker)} ]; then exit 0; fi; touch ${shellQuote(marker)}; printf '%s' ${shellQuote(JSON.stringify({ decision: 'block', reason }))}`;
        session.setHookCommand(command);
        expectCleanRun(await session.prompt('Finish up.'));
        const hooks = session.hookInvocations();
        expect(hooks.map((h) => [h.response.action, h.response.exitCode, h.response.stdout])).toEqual([
          ['exec', 0, JSON.stringify({ decision: 'block', reason })],
          ['exec', 0, ''],
        ]);
        const steps = expectOnlyScriptedTraffic(session.requests, generic);
        expect(steps.map((r) => [r.stepIndex, r.branch])).toEqual([
          [0, undefined],
          [1, 0],
        ]);
        expect(spec.carriesBlockReason(steps[1]?.body, reason)).toBe(true);
      });
    });
  });
}
