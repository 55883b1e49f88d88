import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectFiles } from '../src/checkpoint/checkpoint-project.ts';
import { checkpointEnv } from '../src/checkpoint/checkpoint-routes.ts';
import { HOOK_BUNDLE, assertBundlesBuilt } from '../src/harness/agent-checkpoint-bins.ts';
import type { HeadlessArgv, SessionOptions } from '../src/harness/agent-session.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { installPluginRoute, REPO_ROOT, writeUserConfig } from '../src/harness/plugin-route-install.ts';
import { runInGroup, type ProcessResult } from '../src/harness/process-group.ts';
import { isolatedGitEnv } from '../src/harness/temp-workspace.ts';
import { waitFor } from '../src/harness/wait-for.ts';
import type { LoggedRequest } from '../src/mock/request-log.ts';
import { shellQuote } from '../src/mock/native-tool-calls.ts';
import { branch, edit, read, say, shell, tools, withInputTokens, type Scenario, type ScenarioStep } from '../src/mock/scenario.ts';
import { ClaudeSession } from '../src/run-claude.ts';
import { CodexSession } from '../src/run-codex.ts';
import { GeminiSession } from '../src/run-gemini.ts';

/**
 * Seed 004's acceptance scenarios (issue 21, "Done means") with the real Claude Code, Gemini CLI and
 * Codex CLI installed **the way users install them**: the plugin from a local marketplace (`claude
 * plugin marketplace add` + `claude plugin install`; `codex plugin marketplace add` + `codex plugin
 * add` and the hooks trusted in Codex's TUI, then a plain `codex exec`) and the staged extension
 * (`gemini extensions install`), so every context hook of the plugin runs (SessionStart,
 * UserPromptSubmit/BeforeAgent, PostToolUse/AfterTool, Stop/AfterAgent), not one hook put into the
 * settings by hand. Context checkpoints are turned on in the user configuration file of the temp
 * HOME, as docs/context-checkpoints.md tells users. The model mock reports the context usage, so the
 * levels are reached deterministically (of a 200k window).
 *
 * Per agent: (1) L1 warning, (2) L2 handoff with WIP commit and the loop signal, (3) task-estimation
 * warning, (4) shard suggestion, (5) session resume, (6) a three-iteration loop (the documented
 * recipe) whose handoff the monitor writes. Each ends with `agent-checkpoint-hook report --json`
 * showing its events exactly once. The status line is Claude Code's only.
 */

const WINDOW = 200_000;
const L1_TOKENS = 144_000; // 72 %
const L2_TOKENS = 172_000; // 86 %
const L1_FIX_TOKENS = 152_000; // 76 %
const ESTIMATE_CONTEXT_TOKENS = 110_000; // 55 %, the seed's "context usage is at 55%"

const L1_ALERT = '⚠️ Context at 72% - Consider completing current task before starting new work.';
const L1_AT_76 = '⚠️ Context at 76% - Consider completing current task before starting new work.';
const L2_ALERT = '🔶 Context at 86% - Initiating checkpoint sequence.';
const RESUME_POINTER = 'The previous session ended with a context checkpoint (L2 (context at 86%)';
const RESUME_SECTION = '## CONTEXT CHECKPOINT RESUME';

/** What a user puts into `~/.config/agent-checkpoint/config.json` to turn it all on. */
const USER_CONFIG = {
  context: { enabled: true, windowTokens: WINDOW },
  handoff: { enabled: true, planFile: 'PLAN.md' },
  directExecution: { enabled: true },
};

/**
 * The calculator fix every handoff scenario makes, read first (an edit of an unread file is a
 * checkpoint of its own): a tracked file, so the WIP commit carries it.
 */
const FIX = [read('calc.mjs'), edit('calc.mjs', '  return a - b;\n', '  return a + b;\n')] as const;
const TEST = 'node calc.test.mjs';

type Agent = 'claude' | 'gemini' | 'codex';
type Session = ClaudeSession | GeminiSession | CodexSession;

function start(agent: Agent, scenario: Scenario, files: Readonly<Record<string, string>> = {}): Promise<Session> {
  const options: SessionOptions = {
    scenario,
    files: { ...projectFiles(), ...files },
    // No hook of the harness: every hook is the plugin's.
    hook: { kind: 'none' },
    env: (workspace) => checkpointEnv(workspace, { debug: true }),
  };
  switch (agent) {
    case 'claude':
      return ClaudeSession.start(options);
    case 'gemini':
      return GeminiSession.start(options);
    case 'codex':
      return CodexSession.start(options);
  }
}

/** A started session with the plugin installed and the user configuration written. */
async function withPluginSession(agent: Agent, scenario: Scenario, files: Readonly<Record<string, string>>, fn: (session: Session) => Promise<void>): Promise<void> {
  assertBundlesBuilt();
  await withCheckedSession(start(agent, scenario, files), async (session) => {
    await installPluginRoute(session);
    writeUserConfig(session, USER_CONFIG);
    await fn(session);
  });
}

/**
 * The headless command a user runs: the runners' own, except Codex's without
 * `--dangerously-bypass-hook-trust` (the plugin's hooks were trusted in the TUI, as users do).
 */
function userHeadlessArgv(session: Session): HeadlessArgv {
  return session instanceof CodexSession ? { beforePrompt: [...session.cli.argv, 'exec', '--json'], afterPrompt: [] } : session.headlessArgv();
}

/** The first turn of a session that gets a second one ({@link nextTurn}); it must exit 0. */
async function firstTurn(session: Session, prompt: string): Promise<ProcessResult> {
  if (session instanceof CodexSession) return (await freshRun(session, prompt)).run;
  const run = await session.prompt(prompt);
  expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
  return run;
}

/**
 * A second turn in the session `first` started: Claude/Gemini `--resume` (their runners' `prompt`),
 * Codex `codex exec resume <thread> <prompt>` (without the bypass flag, see {@link userHeadlessArgv}).
 */
async function nextTurn(session: Session, first: ProcessResult, prompt: string): Promise<ProcessResult> {
  if (!(session instanceof CodexSession)) return session.prompt(prompt);
  const thread = first.stdout.split('\n').flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as { type?: string; thread_id?: string }] : [])).find((e) => e.type === 'thread.started')?.thread_id;
  expect(thread, 'codex exec --json announced its thread').toBeDefined();
  const run = await runInGroup([...session.cli.argv, 'exec', 'resume', '--json', thread ?? '', prompt], { cwd: session.workspace.repo, env: session.env(), timeoutMs: 120_000 });
  session.runs.push(run);
  return run;
}

/** One fresh headless run (a new session, as a loop runner starts it); it must exit 0. */
async function freshRun(session: Session, prompt: string): Promise<{ run: ProcessResult; requests: LoggedRequest[] }> {
  const from = session.requests.length;
  const { beforePrompt, afterPrompt } = userHeadlessArgv(session);
  const run = await runInGroup([...beforePrompt, prompt, ...afterPrompt], { cwd: session.workspace.repo, env: session.env(), timeoutMs: 120_000 });
  session.runs.push(run);
  expect(run.timedOut, run.stderr.slice(-2000)).toBe(false);
  expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
  return { run, requests: session.requests.slice(from) };
}

/** The scripted (step) requests' bodies as JSON text, in order. */
function stepBodies(requests: readonly LoggedRequest[]): string[] {
  return requests.filter((r) => r.answer === 'step').map((r) => JSON.stringify(r.body));
}

/** How often `needle` occurs in `haystack`. */
function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** Every request was answered from the script (no fallback, no unknown request, no missing tool). */
function expectOnlyScripted(session: Session): void {
  expect(session.requests.filter((r) => !['step', 'side', 'title'].includes(r.answer) || r.missingTools !== undefined).map((r) => `${r.n} ${r.url} ${r.answer}`)).toEqual([]);
}

/** `agent-checkpoint-hook <args>` in the session's repository and environment. */
function hookCli(session: Session, args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [HOOK_BUNDLE, ...args], { cwd: session.workspace.repo, env: session.env(), encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The session id in Claude's stream-json output (its `system`/`init` line). */
function claudeSessionIdOf(run: ProcessResult): string {
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const event = JSON.parse(line) as { session_id?: string };
    if (event.session_id !== undefined) return event.session_id;
  }
  throw new Error(`no session id in claude's output:\n${run.stdout.slice(0, 1000)}`);
}

/**
 * What Claude Code's `statusLine` command (`agent-checkpoint-hook statusline`, docs/context-checkpoints.md)
 * prints for the session of `run`: fed the JSON Claude gives it, without `context_window` (the
 * transcript's last usage record is read instead, as for Claude versions before that field).
 */
function claudeStatusline(session: Session, run: ProcessResult): string {
  const id = claudeSessionIdOf(run);
  const transcript = path.join(session.workspace.home, '.claude', 'projects', session.workspace.repo.replace(/[^a-zA-Z0-9]/g, '-'), `${id}.jsonl`);
  expect(existsSync(transcript), transcript).toBe(true);
  const input = JSON.stringify({ session_id: id, transcript_path: transcript, cwd: session.workspace.repo, model: { id: 'claude-sonnet-4-5' }, workspace: { current_dir: session.workspace.repo } });
  const result = spawnSync(process.execPath, [HOOK_BUNDLE, 'statusline'], { cwd: session.workspace.repo, env: session.env(), input, encoding: 'utf8', timeout: 30_000 });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.trim();
}

interface MetricsReport {
  readonly events: number;
  readonly handoffs: { total: number; byLevel: { L1: number; L2: number; L3: number }; auto: number; user: number };
  readonly resumes: { consumed: number; completed: number; notCompleted: number; outcomeUnknown: number };
  readonly compactions: { total: number; withoutHandoff: number };
  readonly estimates: { samples: number };
  readonly alerts: { l1Warnings: number; estimateWarnings: number; shardSuggestions: number };
}

/** `report --json`'s metrics part. */
function metricsReport(session: Session): MetricsReport {
  const out = hookCli(session, ['report', '--json']);
  expect(out.status, out.stderr).toBe(0);
  return (JSON.parse(out.stdout) as { report: MetricsReport }).report;
}

const NO_HANDOFFS = { total: 0, byLevel: { L1: 0, L2: 0, L3: 0 }, auto: 0, user: 0 };
/** `report`'s alert counts: the monitor's L1 warnings, the prompt hook's estimate warnings and shard suggestions. */
const alerts = (l1Warnings: number, estimateWarnings: number, shardSuggestions: number) => ({ l1Warnings, estimateWarnings, shardSuggestions });
const ONE_L2_HANDOFF = { total: 1, byLevel: { L1: 0, L2: 1, L3: 0 }, auto: 1, user: 0, userInitiatedShare: 0 };

/** The handoff files (repository-relative), sorted. */
function handoffFiles(session: Session): string[] {
  const dir = path.join(session.workspace.repo, '.agent-checkpoint', 'handoffs');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')).sort().map((f) => `.agent-checkpoint/handoffs/${f}`) : [];
}

function git(session: Session, args: readonly string[]): string {
  return execFileSync('git', args, { cwd: session.workspace.repo, env: { ...process.env, ...isolatedGitEnv(session.workspace.home) }, encoding: 'utf8' });
}

/** The agent's memory file direct execution updates. */
const MEMORY_FILE: Readonly<Record<Agent, string>> = { claude: 'CLAUDE.md', gemini: 'GEMINI.md', codex: 'AGENTS.md' };

/** A plan of `n` open items, each priced by the estimator as one task (~13k tokens, ~6.5 % of 200k). */
function plan(n: number): string {
  return ['# Plan: split the billing service', '', '## Tasks', ...Array.from({ length: n }, (_, i) => `- [ ] Move part ${i + 1} into \`src/billing/part-${i + 1}.ts\``), ''].join('\n');
}

/** The L2 turn's second step: a check at 79 %. */
const CHECK_AT_79 = withInputTokens(tools(shell('echo check')), 158_000);

/**
 * The L2 turn: the fix at 76 % (L1), a check at 79 %, the test run at 86 % (the monitor hands off
 * after it), then the answer. The climb is what lets the monitor act at L2 itself: with the L1 reading
 * at 80 % or more, its P1 rule hands a small task off at L1 already, and a steeper climb (a larger
 * growth per call) makes its trajectory rule see L2 (from L1) or L3 (from L2) in the next call and act
 * early.
 */
function l2Steps(first: ScenarioStep, check: ScenarioStep = CHECK_AT_79): ScenarioStep[] {
  return [
    first,
    check,
    withInputTokens(tools(shell(TEST)), L2_TOKENS), // 86 %: L2
    withInputTokens(say('Stopping here: the handoff has the rest.'), L2_TOKENS + 1_000),
  ];
}

function l2Turn(prompt: string): Scenario {
  const when = { lastUserText: { includes: prompt } };
  return { name: 'acceptance-l2', steps: l2Steps(branch([{ when, reply: withInputTokens(tools(...FIX), L1_FIX_TOKENS) }], say('Unknown session.'))) };
}

const timings: string[] = [];
afterAll(() => {
  if (timings.length > 0) console.log(['context-acceptance.test.ts: wall time per scenario', ...timings.map((t) => `  ${t}`)].join('\n'));
});

/** Runs `fn` and records its wall time under `name`. */
async function timed(name: string, fn: () => Promise<void>): Promise<void> {
  const started = Date.now();
  try {
    await fn();
  } finally {
    timings.push(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

// The agents with a plugin or extension of their own (the install this suite drives). Copilot CLI and
// Qwen Code have only a settings entry; Pi's context hooks (its extension, install --with-context) are
// e2e-tested in pi-context-hooks.test.ts.
const AGENTS: readonly Agent[] = ['claude', 'gemini', 'codex'];

/** The WIP commit subject each agent's L2 test ended with. */

/** The metrics report each agent's session-resume test ended with. */
const resumeReports = new Map<Agent, MetricsReport>();

describe.skipIf(SKIP_REAL_CLIS)('seed 004 acceptance scenarios, plugin/extension installed with every context hook (real CLIs)', () => {
  describe.each(AGENTS)('%s', (agent) => {
    it('L1 warning: crossing 70 % after a tool call, the next request carries the seed’s L1 alert once; nothing is written', () =>
      timed(`${agent} L1 warning`, async () => {
        const prompt = 'Run the two checks.';
        const scenario: Scenario = {
          name: 'acceptance-l1',
          steps: [
            withInputTokens(tools(shell('echo first check')), 136_000), // 68 %: L0
            withInputTokens(tools(shell('echo second check')), L1_TOKENS), // crosses 70 %
            withInputTokens(tools(shell('echo third check')), L1_TOKENS + 1_000),
            withInputTokens(say('Both checks done.'), L1_TOKENS + 2_000),
          ],
        };
        await withPluginSession(agent, scenario, {}, async (session) => {
          const head = git(session, ['rev-parse', 'HEAD']);
          const { run, requests } = await freshRun(session, prompt);
          const bodies = stepBodies(requests);
          expect(bodies).toHaveLength(4);
          // At 68 % (after the first call): nothing.
          expect(bodies[1]).not.toContain('Context at');
          // After the call at 72 %: the alert, once; after the next call at 72 % it is not added again.
          expect(count(bodies[2] ?? '', L1_ALERT)).toBe(1);
          expect(count(bodies[3] ?? '', L1_ALERT)).toBe(1);
          // The Stop hook at 73 % does not say it again either: the turn ended without another request.
          expectOnlyScripted(session);
          // No automatic action: no handoff, no commit.
          expect(handoffFiles(session)).toEqual([]);
          expect(git(session, ['rev-parse', 'HEAD'])).toBe(head);
          // report: the L1 warning once (the monitor's, not the calls after it), and nothing else.
          const report = metricsReport(session);
          expect(report.handoffs).toEqual(NO_HANDOFFS);
          expect(report.alerts).toEqual(alerts(1, 0, 0));
          // The status line (Claude Code's statusLine; Gemini CLI has none) shows the L1 indicator, the
          // recorded trend (and time to L2 when the pace is known), no checkpoint.
          if (agent === 'claude') expect(claudeStatusline(session, run)).toMatch(/^\[CTX: ███████░░░ 73% L1 [↑→↓]( <1m to L2| ~\d+m to L2)?\] \[CKPT: ready\]$/);
        });
      }));

    it('L2 handoff: at 86 % the monitor writes the handoff, makes the WIP commit with the fix, signals the loop; report counts one L2 handoff', () =>
      timed(`${agent} L2 handoff + WIP commit + loop signal`, async () => {
        const prompt = 'Fix add() in calc.mjs and run its test.';
        await withPluginSession(agent, l2Turn(prompt), {}, async (session) => {
          // The seed's setting: work on issue ANV-123 (the branch names it), a loop runner's first
          // iteration (docs/loop-runners.md: `loop start`, `loop next`).
          git(session, ['checkout', '-q', '-b', 'ANV-123-oauth-callback']);
          expect(hookCli(session, ['loop', 'start']).status).toBe(0);
          expect(hookCli(session, ['loop', 'next']).status).toBe(0);
          const head = git(session, ['rev-parse', 'HEAD']).trim();

          const { run, requests } = await freshRun(session, prompt);

          const handoffs = handoffFiles(session);
          expect(handoffs).toHaveLength(1);
          const handoff = handoffs[0] ?? '';
          expect(readFileSync(path.join(session.workspace.repo, handoff), 'utf8')).toContain('checkpoint_trigger: L2 (context at 86%)');

          // The WIP commit: one, on top of the start, carrying the fix and the memory file.
          expect(git(session, ['rev-list', `${head}..HEAD`]).trim().split('\n')).toHaveLength(1);
          const subject = git(session, ['log', '-1', '--format=%s']).trim();
          // Seed 004: "[WIP] ANV-123 - checkpoint" (the branch's issue id), then the trigger and the iteration.
          expect(subject).toBe('[WIP] ANV-123 - checkpoint at L2 (context at 86%) (loop iteration 1)');
          expect(git(session, ['log', '-1', '--format=%B'])).toContain(`Handoff: ${handoff}`);
          expect(git(session, ['show', '--name-only', '--format=', 'HEAD']).trim().split('\n').sort()).toEqual([MEMORY_FILE[agent], 'calc.mjs'].sort());
          expect(readFileSync(path.join(session.workspace.repo, MEMORY_FILE[agent]), 'utf8')).toContain('## Last Session');
          const sha = git(session, ['rev-parse', '--short', 'HEAD']).trim();

          // The model heard it once, right after the tool call at 86 %.
          const bodies = stepBodies(requests);
          expect(bodies).toHaveLength(4);
          // The L1 alert after the fix at 76 %, then nothing new at 79 %.
          expect(count(bodies[1] ?? '', L1_AT_76)).toBe(1);
          expect(bodies[2]).not.toContain(L2_ALERT);
          // After the test run at 86 %: the seed's L2 alert, the handoff and the commit, once.
          expect(count(bodies[3] ?? '', L2_ALERT)).toBe(1);
          expect(bodies[3]).toContain(handoff);
          expect(bodies[3]).toContain(sha);
          expectOnlyScripted(session);

          // The loop signal: the end-this-iteration file names the handoff; `loop next` exits 10.
          expect(readFileSync(path.join(session.workspace.repo, '.agent-checkpoint', 'loop-end-iteration'), 'utf8').trim()).toBe(handoff);
          expect(hookCli(session, ['loop', 'next']).status).toBe(10);

          // report: the L2 handoff once, and the L1 warning the climb passed through once.
          const report = metricsReport(session);
          expect(report.handoffs).toEqual(ONE_L2_HANDOFF);
          expect(report.alerts).toEqual(alerts(1, 0, 0));
          // The status line shows L2 and the monitor's handoff (its time, HH:MM in UTC as the handoff's name).
          if (agent === 'claude') {
            const hhmm = /(\d{2})(\d{2})\.md$/.exec(handoff);
            expect(claudeStatusline(session, run)).toMatch(new RegExp(`^\\[CTX: █{8}░{2} 86% L2 [↑→↓]\\] \\[CKPT: handoff ${hhmm?.[1] ?? ''}:${hhmm?.[2] ?? ''}\\] \\[ISSUE: ANV-123\\]$`));
          }
        });
      }));

    it('task estimation warning: at 55 %, a plan task of ~52 % gets the "may not fit" warning with shard/checkpoint/proceed options; the prompt goes through', () =>
      timed(`${agent} task estimation warning`, async () => {
        const scenario: Scenario = {
          name: 'acceptance-estimate',
          steps: [withInputTokens(say('Hello.'), ESTIMATE_CONTEXT_TOKENS), withInputTokens(say('I will checkpoint first.'), ESTIMATE_CONTEXT_TOKENS + 1_000)],
        };
        await withPluginSession(agent, scenario, { 'PLAN.md': plan(8) }, async (session) => {
          // Gemini: both runs in one minute (task-estimation.test.ts explains the resumed chat file).
          if (agent === 'gemini') await waitFor(() => new Date().getUTCSeconds() < 40, { timeoutMs: 25_000, intervalMs: 250, what: 'a minute with 20 s left' });
          const first = await firstTurn(session, 'Hello.');
          const before = session.requests.length;
          const task = 'Work through PLAN.md: move the billing parts.';
          const second = await nextTurn(session, first, task);
          expect(second.exitCode, second.stderr).toBe(0);
          const body = stepBodies(session.requests.slice(before))[0] ?? '';
          expect(count(body, '[agent-checkpoint] This task is estimated at ~52 % of the context window')).toBe(1);
          expect(body).toContain('~30 % (~60k tokens) that remain. It may not fit: shard it, or checkpoint first and start it in a fresh session; or proceed anyway.');
          // Never a block: the prompt reached the model.
          expect(body).toContain('move the billing parts');
          expectOnlyScripted(session);
          // report: the one warning ("Hello." fitted), no shard breakdown in it.
          const report = metricsReport(session);
          expect(report.alerts).toEqual(alerts(0, 1, 0));
          expect(report.handoffs).toEqual(NO_HANDOFFS);
        });
      }));

    it('shard suggestion: a plan of ~70 % gets the 3-shard breakdown and the shard command; `shard` writes the three shards', () =>
      timed(`${agent} shard suggestion`, async () => {
        const scenario: Scenario = { name: 'acceptance-shard', steps: [say('I will shard it first.')] };
        await withPluginSession(agent, scenario, { 'PLAN.md': plan(11) }, async (session) => {
          const { requests } = await freshRun(session, 'Implement PLAN.md: the whole billing split.');
          const body = stepBodies(requests)[0] ?? '';
          expect(body).toMatch(/This task is estimated at ~7\d % of the context window/);
          expect(body).toContain('Tasks over 60 % should be sharded before starting');
          expect(body).toContain('suggested 3 shards, one per session');
          // Claude's plugin puts its bin on the agent's PATH; Gemini's extension and Codex's plugin do not,
          // so their hint names the installed bundle.
          expect(body).toMatch(agent === 'claude' ? /Write them with: agent-checkpoint-hook shard PLAN\.md/ : /Write them with: node \S+\/dist\/agent-checkpoint-hook\.cjs shard PLAN\.md/);
          expect(body).toContain('the whole billing split');
          expectOnlyScripted(session);
          // report: one shard suggestion (the warning with the breakdown counts as that, not twice).
          expect(metricsReport(session).alerts).toEqual(alerts(0, 0, 1));

          const shard = hookCli(session, ['shard', 'PLAN.md', '--json']);
          expect(shard.status, shard.stderr).toBe(0);
          const out = JSON.parse(shard.stdout) as { dir: string; written: string[] };
          expect(out.written).toHaveLength(3);
          expect(readdirSync(path.join(session.workspace.repo, out.dir)).filter((f) => f.endsWith('.md'))).toHaveLength(3);
        });
      }));

    it('session resume: after an L2 session, the next session starts with the handoff (SessionStart), once, and finishes the work; report counts one handoff and one completed resume', () =>
      timed(`${agent} session resume`, async () => {
        const a = 'Session A: fix add() in calc.mjs and run its test.';
        const b = 'Session B: continue from where A stopped.';
        const c = 'Session C: anything left?';
        // Session A's L2 turn; session B runs the handoff's remaining step (the calculator's test, on
        // the fixed add() of A's WIP commit) and answers: a resumed session that did work.
        const steps = l2Steps(
          branch(
            [
              // Latest session first: Gemini puts the SessionStart context (the handoff, whose
              // title is session A's prompt) into the user text of session B.
              { when: { lastUserText: { includes: c } }, reply: say('Nothing left.') },
              { when: { lastUserText: { includes: b } }, reply: tools(shell(TEST)) },
              { when: { lastUserText: { includes: a } }, reply: withInputTokens(tools(...FIX), L1_FIX_TOKENS) },
            ],
            say('Unknown session.'),
          ),
          branch([{ when: { lastUserText: { includes: b } }, reply: say('The test passes: add() is fixed, nothing is left from the handoff.') }], CHECK_AT_79),
        );
        const scenario: Scenario = { name: 'acceptance-resume', steps };
        await withPluginSession(agent, scenario, {}, async (session) => {
          const first = await freshRun(session, a);
          expect(stepBodies(first.requests)[0]).not.toContain('The previous session ended with a context checkpoint');
          const handoffs = handoffFiles(session);
          expect(handoffs).toHaveLength(1);
          const handoff = handoffs[0] ?? '';

          const resumed = await freshRun(session, b);
          const bBody = stepBodies(resumed.requests)[0] ?? '';
          expect(count(bBody, RESUME_POINTER)).toBe(1);
          expect(bBody).toContain(`Read ${handoff} before continuing`);
          expect(bBody).toContain('# Session Handoff: Session A: fix add() in calc.mjs and run its test.');
          // B did the work: its test run, then its answer (no second handoff at B's low context).
          expect(stepBodies(resumed.requests)).toHaveLength(2);
          expect(handoffFiles(session)).toEqual([handoff]);

          const third = await freshRun(session, c);
          expect(stepBodies(third.requests)[0]).not.toContain('The previous session ended with a context checkpoint');
          expectOnlyScripted(session);

          const report = metricsReport(session);
          expect(report.handoffs).toEqual(ONE_L2_HANDOFF);
          expect(report.resumes.consumed).toBe(1);
          resumeReports.set(agent, report);
        });
      }));

    // Resume outcomes (issue 21 item 4): a resume counts as continued at the first turn end of the
    // resumed session that did work (a successful tool call), and as not continued when the session
    // compacts or the loop iteration ends first (packages/delivery-hook/src/session-start/resume-outcome.test.ts).
    // Session B ran the test at its turn, so its Stop hook recorded the resume as completed.
    it('session resume: the resumed session that did work is a completed resume (success 100 %)', () => {
      const report = resumeReports.get(agent);
      expect(report, 'the session-resume test ran').toBeDefined();
      expect(report?.resumes).toEqual({ consumed: 1, completed: 1, notCompleted: 0, outcomeUnknown: 0, successRate: 1 });
      // Session A's climb passed L1 once; no estimate or shard warning in these three sessions.
      expect(report?.alerts).toEqual(alerts(1, 0, 0));
    });

    it('loop of three iterations (the documented recipe): the monitor writes the handoff in iteration 1, iteration 2 resumes from it, iteration 3 does not', () =>
      timed(`${agent} loop of three iterations`, async () => {
        const task = 'Work on the calculator; one step per iteration.';
        const iteration = (n: number) => ({ lastUserText: { includes: `Loop iteration ${n} of 3.` } });
        const scenario: Scenario = {
          name: 'acceptance-loop',
          steps: l2Steps(
            branch(
              [
                // Latest iteration first: iteration 2's prompt quotes iteration 1's (the handoff's title).
                { when: iteration(3), reply: say('Step three done.') },
                { when: iteration(2), reply: say('Resumed from the handoff; continuing.') },
                { when: iteration(1), reply: withInputTokens(tools(...FIX), L1_FIX_TOKENS) },
              ],
              say('Unknown iteration.'),
            ),
          ),
        };
        await withPluginSession(agent, scenario, { 'PROMPT.md': `${task}\n` }, async (session) => {
          const repo = session.workspace.repo;
          writeFileSync(path.join(repo, 'ralph-loop.sh'), loopRecipe(), { mode: 0o755 });
          const { beforePrompt, afterPrompt } = userHeadlessArgv(session);
          // The recipe feeds the prompt on stdin: `claude -p` reads it there, `codex exec -` too;
          // `gemini -p <text>` appends <text> to it.
          const stdinPrompt: Readonly<Record<Agent, readonly string[]>> = { claude: [], codex: ['-'], gemini: ['Follow the loop prompt above.'] };
          const agentCommand = [...beforePrompt, ...stdinPrompt[agent], ...afterPrompt];
          const run = await runInGroup(['bash', 'ralph-loop.sh', '3', ...agentCommand], {
            cwd: repo,
            env: { ...session.env(), HOOK: `node ${shellQuote(HOOK_BUNDLE)}` },
            timeoutMs: 300_000,
          });
          session.runs.push(run);
          const logs = [1, 2, 3].map((i) => {
            const file = path.join(repo, '.agent-checkpoint', `iteration-${i}.log`);
            return existsSync(file) ? readFileSync(file, 'utf8').slice(-1500) : '(no log)';
          });
          expect(run.exitCode, `loop runner stderr:\n${run.stderr}\nlogs:\n${logs.join('\n---\n')}`).toBe(0);
          expect(run.stderr.split('\n').filter((l) => l.startsWith('ralph-loop:'))).toEqual([1, 2, 3].map((i) => `ralph-loop: iteration ${i}: agent exited 0`));

          const handoffs = handoffFiles(session);
          expect(handoffs).toHaveLength(1);
          const handoff = handoffs[0] ?? '';
          expect(readFileSync(path.join(repo, handoff), 'utf8')).toContain('checkpoint_trigger: L2 (context at 86%)');
          // The monitor wrote it (during iteration 1's turn, after the tool call at 86 %), with its WIP commit.
          expect(git(session, ['log', '--format=%s'])).toMatch(/checkpoint at L2 \(context at 86%\) \(loop iteration 1\)/);
          const state = JSON.parse(readFileSync(path.join(repo, '.agent-checkpoint', 'loop-state.json'), 'utf8')) as Record<string, unknown>;
          expect(state).toMatchObject({
            iteration: 3,
            context_checkpoint: { level: 'L2', percent_at_checkpoint: 86, handoff_file: handoff, handoff_iteration: 1, handoff_consumed: true },
          });
          expect(run.stdout).toContain(`Checkpoint: L2 at 86% in iteration 1, ${handoff} (resumed)`);

          // Iteration 1 got the monitor's L2 alert during its turn; iteration 2's prompt carried the
          // resume section; iteration 3's did not.
          const steps = session.requests.filter((r) => r.answer === 'step');
          const userTexts = steps.map((r) => r.view?.lastUserText ?? '');
          const bodies = steps.map((r) => JSON.stringify(r.body));
          expect(bodies.filter((b) => b.includes(L2_ALERT)).length).toBeGreaterThan(0);
          const prompts = [1, 2, 3].map((n) => userTexts.find((t) => t.includes(`Loop iteration ${n} of 3.`)) ?? '');
          expect(prompts.map((p) => p.includes(task))).toEqual([true, true, true]);
          expect(prompts.map((p) => p.includes(RESUME_SECTION))).toEqual([false, true, false]);
          expect(prompts[1]).toContain(`- **Handoff**: ${handoff}`);
          expectOnlyScripted(session);

          const report = metricsReport(session);
          expect(report.handoffs).toEqual(ONE_L2_HANDOFF);
          expect(report.resumes.consumed).toBe(1);
          // Iteration 1's climb passed L1 once (the monitor's warning at 76 %).
          expect(report.alerts).toEqual(alerts(1, 0, 0));
        });
      }));
  });
});

/** The fenced bash block after the recipe marker of docs/loop-runners.md: what users copy. */
function loopRecipe(): string {
  const page = readFileSync(path.join(REPO_ROOT, 'docs', 'loop-runners.md'), 'utf8');
  const match = /<!-- loop-runner-recipe[^>]*-->\n```bash\n([\s\S]*?)\n```/.exec(page);
  if (match?.[1] === undefined) throw new Error('no loop-runner recipe block in docs/loop-runners.md');
  return `${match[1]}\n`;
}
