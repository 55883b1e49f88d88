import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AGENT_CHECKPOINT_DIR, writeHandoff } from '@agent-checkpoint/context-checkpoint';
import { resolveStateDir } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { HOOK_BUNDLE, assertBundlesBuilt } from '../src/harness/agent-checkpoint-bins.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { say, shell, tools, withInputTokens, type Scenario } from '../src/mock/scenario.ts';
import { PiSession } from '../src/run-pi.ts';

/**
 * Pi's context hooks end to end with the real pinned Pi (0.73.1) against the mock, installed the way
 * a user installs them: `agent-checkpoint-hook install --agent pi --with-context` writes our extension
 * and its hook.json (turn_end, session_start, session_before_compact, tool_result, before_agent_start),
 * and a project `.agent-checkpoint.json` turns context checkpoints on. Seed 004's L1 warning (the
 * monitor after a tool call), its task estimation warning (the prompt hook) and the session resume
 * (the session-start hook) each reach the model's next request, once.
 */

const WINDOW = 200_000;
const L1_TEXT = '⚠️ Context at 72% - Consider completing current task before starting new work.';
const WARNING = '[agent-checkpoint] This task is estimated at';
const PLAN = ['# Plan: split the billing service', '', '## Tasks', ...Array.from({ length: 10 }, (_, i) => `- [ ] Move part ${i + 1} into \`src/billing/part-${i + 1}.ts\``), ''].join('\n');
const LARGE_TASK = 'Work through PLAN.md: refactor every billing module and migrate all callers.';
/** A string only the handoff contains: its presence in a request proves the injection. */
const MARKER = 'Resume marker 9d2a41: finish the token exchange in src/oauth.ts';

function config(value: Record<string, unknown>): Record<string, string> {
  return { '.agent-checkpoint.json': `${JSON.stringify(value, null, 2)}\n` };
}

/** Runs our bundled bin as the user would, in the session's environment. */
function ours(args: readonly string[], session: PiSession): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [HOOK_BUNDLE, ...args], { env: session.env(), cwd: session.workspace.repo, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `install --agent pi --with-context`, checked: every context hook is in hook.json beside the turn end. */
function installWithContext(session: PiSession): void {
  const installed = ours(['install', '--agent', 'pi', '--with-context'], session);
  expect(installed.code, installed.stderr).toBe(0);
  const hookJson = JSON.parse(readFileSync(path.join(session.workspace.home, '.pi', 'agent', 'extensions', 'agent-checkpoint', 'hook.json'), 'utf8')) as { hooks: Record<string, unknown> };
  expect(Object.keys(hookJson.hooks).sort()).toEqual(['before_agent_start', 'session_before_compact', 'session_start', 'tool_result', 'turn_end']);
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** The bodies of the step requests from index `from` of the request log on, as JSON text. */
function stepBodies(session: PiSession, from = 0): string[] {
  return session.requests
    .slice(from)
    .filter((r) => r.answer === 'step')
    .map((r) => JSON.stringify(r.body));
}

/** The run's stderr without Pi's own lines: what our extension and hooks said. */
function ourStderr(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.includes('agent-checkpoint'));
}

describe.skipIf(SKIP_REAL_CLIS)('Pi: the context hooks through our extension (install --with-context)', () => {
  assertBundlesBuilt();

  it('L1 warning: after the first tool call at 72 percent, the tool result the model gets next carries the alert, exactly once', async () => {
    const scenario: Scenario = {
      name: 'pi-monitor-l1',
      steps: [withInputTokens(tools(shell('echo first call')), 144_000), withInputTokens(tools(shell('echo second call')), 145_000), withInputTokens(say('Done.'), 146_000)],
    };
    await withCheckedSession(PiSession.start({ scenario, files: config({ context: { enabled: true, windowTokens: WINDOW } }), hook: { kind: 'none' } }), async (session) => {
      installWithContext(session);
      const run = await session.prompt('Run the two checks.');
      expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
      expect(ourStderr(run.stderr), 'no warning from the extension or the hooks').toEqual([]);
      const bodies = stepBodies(session);
      // Three model requests: no follow-up from the turn end (L1 never blocks on its own).
      expect(bodies).toHaveLength(3);
      expect(bodies[0]).not.toContain('Context at');
      // After the first call: the alert, once, in that call's tool_result (Pi joins the extension's
      // text block to the command's output).
      expect(count(bodies[1] ?? '', L1_TEXT)).toBe(1);
      expect(bodies[1]).toMatch(/"type":"tool_result","tool_use_id":"[^"]+","content":"first call\\n\\n⚠️ Context at 72% - /);
      // After the second call (same level): not added again; the history still holds the first one.
      expect(count(bodies[2] ?? '', L1_TEXT)).toBe(1);
      expect(count(bodies[2] ?? '', 'Context at')).toBe(1);
    });
  });

  it('L2 at 86 percent: the monitor writes the handoff, the model is asked to finish the step and hand off, the user sees the notice on stderr (pi -p has no UI)', async () => {
    const scenario: Scenario = {
      name: 'pi-monitor-l2',
      steps: [withInputTokens(tools(shell('echo first call')), 172_000), withInputTokens(tools(shell('echo second call')), 173_000), withInputTokens(say('Done.'), 174_000)],
    };
    const files = config({ context: { enabled: true, windowTokens: WINDOW }, handoff: { enabled: true, dir: 'notes/handoffs' } });
    await withCheckedSession(PiSession.start({ scenario, files, hook: { kind: 'none' } }), async (session) => {
      installWithContext(session);
      // `handoff.dir` is a privileged key: it applies once the user trusts the file.
      expect(ours(['trust'], session).code).toBe(0);
      const run = await session.prompt('Start the OAuth callback work.');
      expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
      const dir = path.join(session.workspace.repo, 'notes', 'handoffs');
      const handoffs = readdirSync(dir).filter((f) => f.endsWith('.md'));
      expect(handoffs).toHaveLength(1);
      const handoff = `notes/handoffs/${handoffs[0] ?? ''}`;
      expect(readFileSync(path.join(dir, handoffs[0] ?? ''), 'utf8')).toContain('checkpoint_trigger: L2 (context at 86%)');
      const bodies = stepBodies(session);
      // No follow-up from the turn end: the monitor acted at L2 (one record of the levels acted on).
      expect(bodies).toHaveLength(3);
      expect(bodies[0]).not.toContain('Context at');
      expect(bodies[1]).toContain('Context at 86% - Initiating checkpoint sequence.');
      expect(count(bodies[1] ?? '', `Handoff written to ${handoff}. Finish the current step, then stop and hand off`)).toBe(1);
      expect(count(bodies[2] ?? '', `Handoff written to ${handoff}`)).toBe(1);
      // The user's line is Pi's notification: on stderr under `pi -p`, once, and not in the model's context.
      const notice = `agent-checkpoint: context at 86% (L2); handoff written to ${handoff}.`;
      expect(run.stderr.split('\n').filter((line) => line.includes(notice))).toHaveLength(1);
      expect(bodies[1]).not.toContain(notice);
    });
  });

  it('task estimation warning: a large task over the plan reaches the model with the warning and the shard suggestion; a small prompt gets none', async () => {
    const scenario: Scenario = { name: 'pi-task-estimation', steps: [withInputTokens(say('First answer.'), 100_000), withInputTokens(say('I will propose shards first.'), 100_000)] };
    const files = { 'PLAN.md': PLAN, ...config({ context: { enabled: true, windowTokens: WINDOW }, handoff: { enabled: true, planFile: 'PLAN.md' } }) };
    await withCheckedSession(PiSession.start({ scenario, files, hook: { kind: 'none' } }), async (session) => {
      installWithContext(session);
      const first = await session.prompt('Hello.');
      expect(first.exitCode, first.stderr).toBe(0);
      expect(stepBodies(session).map((body) => count(body, WARNING))).toEqual([0]);
      const before = session.requests.length;
      const second = await session.prompt(LARGE_TASK);
      expect(second.exitCode, second.stderr).toBe(0);
      expect(ourStderr(second.stderr)).toEqual([]);
      const bodies = stepBodies(session, before);
      expect(bodies).toHaveLength(1);
      expect(count(bodies[0] ?? '', WARNING)).toBe(1);
      // Pi sends the extension's message as a user message right after the prompt.
      expect(bodies[0]).toMatch(/refactor every billing module and migrate all callers\."\}\]\},\{"role":"user","content":\[\{"type":"text","text":"\[agent-checkpoint\] This task is estimated at/);
      expect(bodies[0]).toMatch(/~35 % \(~70k tokens\) remain/);
      expect(bodies[0]).toContain('suggested 3 shards, one per session');
    });
  });

  it('session resume: a handoff written after the first run reaches the next run`s first request, once; the claim names the session', async () => {
    const scenario: Scenario = { name: 'pi-session-start-resume', steps: [say('First answer.'), say('Resumed answer.'), say('Third answer.')] };
    const files = { 'src/oauth.ts': 'export const exchange = () => undefined;\n', ...config({ handoff: { enabled: true } }) };
    await withCheckedSession(PiSession.start({ scenario, files, hook: { kind: 'none' } }), async (session) => {
      installWithContext(session);
      const first = await session.prompt('Start the OAuth work.');
      expect(first.exitCode, first.stderr).toBe(0);
      expect(stepBodies(session).some((body) => body.includes('9d2a41'))).toBe(false);

      // A handoff as the end-of-turn context step writes it, recorded in the state directory the hooks use.
      const written = await writeHandoff({
        projectRoot: session.workspace.repo,
        stateDir: resolveStateDir({ env: session.env(), homeDir: session.workspace.home }),
        now: new Date(),
        data: { agent: 'pi', projectRoot: session.workspace.repo, trigger: { kind: 'manual', reason: 'e2e: context checkpoint before resuming' }, nextSteps: [MARKER], title: 'OAuth callback' },
      });
      if (!written.ok) throw new Error(written.error);

      const before = session.requests.length;
      const resumed = await session.prompt('Continue.');
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      expect(ourStderr(resumed.stderr)).toEqual([]);
      const bodies = stepBodies(session, before);
      expect(bodies).toHaveLength(1);
      expect(count(bodies[0] ?? '', '9d2a41')).toBe(1);
      expect(bodies[0]).toContain(written.handoff.relativePath);
      // Pi sends it as a user message right after the prompt.
      expect(bodies[0]).toMatch(/"text":"Continue\."\}\]\},\{"role":"user","content":\[\{"type":"text","text":"The previous session ended with a context checkpoint/);
      const injected = path.join(session.workspace.repo, AGENT_CHECKPOINT_DIR, 'injected');
      const claims = readdirSync(injected).map((f) => JSON.parse(readFileSync(path.join(injected, f), 'utf8')) as Record<string, unknown>);
      expect(claims).toEqual([expect.objectContaining({ agent: 'pi', sessionId: session.sessionId })]);

      // The next run of the same session keeps the earlier injection in its history, and adds none.
      const third = await session.prompt('And now?');
      expect(third.exitCode, third.stderr).toBe(0);
      const last = stepBodies(session).at(-1) ?? '';
      expect(count(last, '9d2a41')).toBe(1);
      expect(existsSync(path.join(session.workspace.repo, AGENT_CHECKPOINT_DIR, 'handoffs'))).toBe(true);
    });
  });
});

/**
 * Pi 0.73.1 compacts by itself after a run whose context passed its model's window less its 16k
 * reserve (here the mock reports 990k tokens of the 1M window `models.json` gives): before it asks the
 * model for the summary it awaits `session_before_compact`, where our `pre-compact pi` hook writes the
 * session's handoff. The compaction goes on (the extension never cancels it).
 */
describe.skipIf(SKIP_REAL_CLIS)('Pi: session_before_compact writes the handoff before Pi compacts', () => {
  it('auto-compaction: the handoff of the session is written, the compaction entry follows, the run exits 0', async () => {
    const scenario: Scenario = { name: 'pi-pre-compact', steps: [withInputTokens(say('First answer.'), 990_000)], fallback: say('Summary of the conversation so far.') };
    await withCheckedSession(PiSession.start({ scenario, files: config({ handoff: { enabled: true } }), hook: { kind: 'none' } }), async (session) => {
      installWithContext(session);
      const run = await session.prompt('Start the OAuth work.');
      expect(run.exitCode, run.stderr).toBe(0);
      expect(ourStderr(run.stderr)).toEqual([]);
      const dir = path.join(session.workspace.repo, AGENT_CHECKPOINT_DIR, 'handoffs');
      const written = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')) : [];
      expect(written).toHaveLength(1);
      const handoff = readFileSync(path.join(dir, written[0] ?? ''), 'utf8');
      expect(handoff).toMatch(/checkpoint_trigger: pre-compact/);
      expect(handoff).toContain(`session_id: ${session.sessionId}`);
      expect(handoff).toContain('# Session Handoff: Start the OAuth work.');
      // Pi asked for its summary (a side request) and recorded the compaction.
      expect(session.requests.filter((r) => r.answer !== 'step')).toHaveLength(1);
      const entries = readFileSync(session.transcriptPaths()[0] ?? '', 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => (JSON.parse(line) as { type?: string }).type);
      expect(entries.at(-1)).toBe('compaction');
    });
  });
});
