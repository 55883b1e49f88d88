import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentId, CheckpointOutcome } from '@agent-checkpoint/core';
import { realHookCommand, TMUX_BUNDLE, tmuxNotifyArgv } from '../harness/agent-checkpoint-bins.ts';
import type { AgentSession, HookInvocation, SessionOptions } from '../harness/agent-session.ts';
import { withCheckedSession } from '../harness/define-headless-agent-tests.ts';
import { markedCommandLines, type ProcessResult } from '../harness/process-group.ts';
import type { TempWorkspace } from '../harness/temp-workspace.ts';
import { waitFor } from '../harness/wait-for.ts';
import type { LoggedRequest } from '../mock/request-log.ts';
import { ClaudeSession } from '../run-claude.ts';
import { CodexSession } from '../run-codex.ts';
import { CodexTuiSession, type CodexTuiOptions } from '../run-codex-tui.ts';
import { CopilotSession } from '../run-copilot.ts';
import { GeminiSession } from '../run-gemini.ts';
import { PiSession } from '../run-pi.ts';
import { QwenSession } from '../run-qwen.ts';
import { projectFiles, type ProjectOptions } from './checkpoint-project.ts';
import { CHECKPOINT_ROUTES, isNotifyRoute, ROUTE_LABELS, routeAgent, type CheckpointRoute } from './checkpoint-route.ts';
import type { CheckpointScenario } from './checkpoint-scenarios.ts';
import { findDeliveredCheckpoint, type DeliveredCheckpoint } from './delivered-checkpoint.ts';
import { expectedCheckpoint } from './expected-checkpoint.ts';
import { readTmuxDecisions, type TmuxDecision } from './tmux-decisions.ts';

// The route names live in a leaf module (the checkpoint readers this file runs name them too); the
// tests import them from here, beside the runner.
export { CHECKPOINT_ROUTES, isNotifyRoute, ROUTE_LABELS, routeAgent, type CheckpointRoute };

export interface RouteRunOptions {
  readonly scenario: CheckpointScenario;
  readonly project?: ProjectOptions;
  /** `AGENT_CHECKPOINT_DEBUG=1` for the hook (the tmux route always runs with it: its decisions are read from the debug log). */
  readonly hookDebug?: boolean;
  /**
   * Tmux route only: install our Stop hook too (through the probe, as on the hook routes), as a user
   * who set up both routes would. The two share the loop-guard state.
   */
  readonly withStopHook?: boolean;
  /** Tmux route only: how the TUI runs (the default daemon, a `codex` wrapper without `queue`). */
  readonly tui?: CodexTuiOptions;
  /** Codex routes: the model slug (`gpt-6.1-sol` runs code mode); default `gpt-5.5`. */
  readonly codexModel?: string;
}

/** Everything a test asserts on after one scenario ran to its end on one route. */
export interface RouteRun {
  readonly route: CheckpointRoute;
  readonly agent: AgentId;
  readonly scenario: CheckpointScenario;
  readonly session: AgentSession;
  readonly sessionId: string;
  /** `AGENT_CHECKPOINT_STATE_DIR` of this run (inside the session's workspace). */
  readonly stateDir: string;
  /** CLI invocations (hook routes: one `-p`/`exec` run; the TUI: none). */
  readonly runs: readonly ProcessResult[];
  /** Every mock request of the session (including side and title requests). */
  readonly requests: readonly LoggedRequest[];
  /** Requests answered with a scripted step (main-thread model turns), in order. */
  readonly steps: readonly LoggedRequest[];
  /**
   * The stops our tool judged: Stop/AfterAgent hook invocations through the probe (hook routes), or
   * notify calls of the main thread (tmux route), in order.
   */
  readonly stops: readonly HookInvocation[];
  /** Hook routes: what the hook printed on stdout per stop, parsed (undefined for an empty stdout). */
  readonly hookOutputs: readonly (Record<string, unknown> | undefined)[];
  /** Tmux route: the notify program's decision per main-thread turn (from its debug log). */
  readonly tmuxDecisions: readonly TmuxDecision[];
  /** The first scripted model request that carried a checkpoint, and the checkpoint in it. */
  readonly delivery: { readonly request: LoggedRequest; readonly checkpoint: DeliveredCheckpoint } | undefined;
  /**
   * Wall time of our tool per stop, in ms, and whether it delivered a checkpoint then. Hook routes:
   * the hook command, spawn to exit, as the probe relays it. Tmux route: the notify program from
   * "turn complete" to its decision (typing included; process start excluded), from its debug log.
   */
  readonly toolTimes: readonly { readonly ms: number; readonly delivered: boolean }[];
  /** `getCheckpoint` (core, in-process) for the turn the first stop judged; see {@link expectedCheckpoint}. */
  expected(): Promise<CheckpointOutcome>;
}

const TMUX_SETTLE_TIMEOUT_MS = 60_000;

/**
 * Runs `options.scenario` on `route` with our real, bundled tool installed the way a user installs
 * it, against the scripted mock, until the session has settled; then calls `fn` with what happened.
 * The session (processes, tmux server, temp workspace with the state dir) is always disposed, and
 * the disposal is checked.
 *
 * - Hook routes: the Stop/AfterAgent hook is `node <abs>/agent-checkpoint-hook.cjs <agent>`, relayed
 *   by the probe (which records payload, output, wall time and a transcript snapshot); Codex runs
 *   `exec --dangerously-bypass-hook-trust`. One headless prompt; it settles when the CLI exits (and,
 *   for Codex, its notify was recorded).
 * - Tmux route: the Codex TUI in tmux, no Stop hook, `notify = ["node", "<abs>/agent-checkpoint-tmux.mjs",
 *   "--", <probe>]` (the probe is chained after `--`, so every notify is still recorded). It settles
 *   when the notify program decided about the prompt's turn and, if it typed a checkpoint, about
 *   the turn that answered it, and no notify program is still running.
 */
export async function withRouteRun(route: CheckpointRoute, options: RouteRunOptions, fn: (run: RouteRun) => Promise<void>): Promise<void> {
  const agent = routeAgent(route);
  const { scenario } = options;
  const base: SessionOptions = {
    scenario: scenario.script,
    files: projectFiles(options.project),
    env: (workspace) => checkpointEnv(workspace, { debug: options.hookDebug === true || isNotifyRoute(route) }),
    ...(options.codexModel !== undefined ? { codexModel: options.codexModel } : {}),
  };
  const hook = { kind: 'command', command: realHookCommand(agent) } as const;
  if (isNotifyRoute(route)) {
    const tuiHook = options.withStopHook === true ? hook : ({ kind: 'none' } as const);
    const tui: CodexTuiOptions = { ...(route === 'codex-queue' ? { daemon: true } : { codexWrapper: 'no-queue' }), ...options.tui };
    await withCheckedSession(CodexTuiSession.start({ ...base, ...tui, hook: tuiHook, notifyChain: tmuxNotifyArgv() }), async (session) => {
      const stateDir = stateDirOf(session.workspace);
      await session.submit(scenario.prompt);
      await settleTmuxRoute(session, stateDir);
      await fn(collect(route, scenario, session, stateDir, [], readTmuxDecisions(stateDir, session.sessionId ?? '')));
    });
    return;
  }
  const start =
    agent === 'claude'
      ? ClaudeSession.start({ ...base, hook })
      : agent === 'gemini'
        ? GeminiSession.start({ ...base, hook })
        : agent === 'copilot'
          ? CopilotSession.start({ ...base, hook })
          : agent === 'qwen'
            ? QwenSession.start({ ...base, hook })
            : agent === 'pi'
              ? PiSession.start({ ...base, hook })
              : CodexSession.start({ ...base, hook });
  await withCheckedSession<ClaudeSession | GeminiSession | CodexSession | CopilotSession | QwenSession | PiSession>(start, async (session) => {
    const run = await session.prompt(scenario.prompt);
    if (run.timedOut || run.exitCode !== 0) throw new Error(`${agent} run failed (exit ${String(run.exitCode)}, timed out: ${String(run.timedOut)}):\n${run.stderr.slice(-2000)}`);
    if (session instanceof CodexSession) await session.waitForNotifications(1);
    await fn(collect(route, scenario, session, stateDirOf(session.workspace), session.runs, []));
  });
}

/** `AGENT_CHECKPOINT_STATE_DIR` of a session: `<workspace>/state`, removed with the workspace. */
export const stateDirOf = (workspace: Pick<TempWorkspace, 'root'>): string => path.join(workspace.root, 'state');

/** The environment our tool runs with in a session (through the CLI, which its hooks inherit). */
export function checkpointEnv(workspace: Pick<TempWorkspace, 'root' | 'home'>, options: { readonly debug: boolean }): Record<string, string> {
  return {
    AGENT_CHECKPOINT_STATE_DIR: stateDirOf(workspace),
    // Where the tool looks for the user config file and keeps its config cache. HOME already
    // points there for the CLIs; explicit XDG paths make the in-process getCheckpoint (which gets
    // this env, but takes the home directory from the test process) use the same files, and
    // never the real user's.
    XDG_CONFIG_HOME: path.join(workspace.home, '.config'),
    XDG_CACHE_HOME: path.join(workspace.home, '.cache'),
    ...(options.debug ? { AGENT_CHECKPOINT_DEBUG: '1' } : {}),
  };
}

/**
 * Waits (with deadlines) until the tmux route is done with this prompt: the turn completed, the
 * notify program decided about it, and if it typed the checkpoint, the answering turn completed and
 * was decided about too. A stray injection would show up as a further decision or a request past
 * the script, which the tests assert on.
 */
async function settleTmuxRoute(session: CodexTuiSession, stateDir: string): Promise<void> {
  const decided = async (turns: number): Promise<TmuxDecision[]> => {
    await session.waitForTurnsCompleted(turns, { timeoutMs: TMUX_SETTLE_TIMEOUT_MS });
    return waitFor(
      () => {
        const decisions = readTmuxDecisions(stateDir, session.sessionId ?? '');
        return decisions.length >= turns && decisions.every((d) => d.outcome !== undefined) && !notifyProgramRunning(session) ? decisions : undefined;
      },
      { timeoutMs: TMUX_SETTLE_TIMEOUT_MS, what: `the tmux notify program's decision on turn ${turns}` },
    );
  };
  const first = await decided(1);
  if (first[0]?.outcome?.startsWith('delivered') === true || first[0]?.outcome?.startsWith('queued') === true) await decided(2);
  await session.waitForIdle({ timeoutMs: TMUX_SETTLE_TIMEOUT_MS, what: 'an idle composer after the last decision' });
}

function notifyProgramRunning(session: AgentSession): boolean {
  return markedCommandLines(session.workspace.runId).some((p) => p.cmdline.includes(TMUX_BUNDLE));
}

function collect(
  route: CheckpointRoute,
  scenario: CheckpointScenario,
  session: AgentSession & { readonly sessionId: string | undefined },
  stateDir: string,
  runs: readonly ProcessResult[],
  tmuxDecisions: readonly TmuxDecision[],
): RouteRun {
  const sessionId = session.sessionId;
  if (sessionId === undefined) throw new Error(`${route}: no session id`);
  const requests = session.requests;
  const steps = requests.filter((r) => r.answer === 'step');
  const stops = isNotifyRoute(route) ? (session as CodexTuiSession).mainThreadNotifications() : session.hookInvocations();
  const delivery = steps
    .map((request) => ({ request, checkpoint: findDeliveredCheckpoint(route, request.body) }))
    .find((d): d is { request: LoggedRequest; checkpoint: DeliveredCheckpoint } => d.checkpoint !== undefined);
  const toolTimes =
    isNotifyRoute(route)
      ? tmuxDecisions.flatMap((d) => (d.durationMs === undefined ? [] : [{ ms: d.durationMs, delivered: d.outcome === 'delivered' || d.outcome === 'queued' }]))
      : stops.flatMap((s) => (s.response.durationMs === undefined ? [] : [{ ms: s.response.durationMs, delivered: s.response.stdout.trim() !== '' }]));
  const env = session.env();
  return {
    route,
    agent: routeAgent(route),
    scenario,
    session,
    sessionId,
    stateDir,
    runs,
    requests,
    steps,
    stops,
    hookOutputs: stops.map((s) => (s.response.stdout.trim() === '' ? undefined : (JSON.parse(s.response.stdout) as Record<string, unknown>))),
    tmuxDecisions,
    delivery,
    toolTimes,
    expected: async () => {
      const first = stops[0];
      if (first === undefined) throw new Error(`${route}: no stop was recorded`);
      return expectedCheckpoint(route, first, env);
    },
  };
}

/** The session's transcript (rollout, session file) as it is now. */
export function readTranscript(run: RouteRun): string {
  const file = run.session.transcriptPaths()[0];
  if (file === undefined || !existsSync(file)) throw new Error(`${run.route}: no transcript`);
  return readFileSync(file, 'utf8');
}
