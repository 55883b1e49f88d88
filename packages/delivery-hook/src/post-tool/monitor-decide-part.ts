import { runMonitorHook, type MonitorHookDecision, type MonitorSession } from '@agent-checkpoint/context-checkpoint/monitor';
import { CLI_USER_COMMANDS, forModelText } from '@agent-checkpoint/core/hot-path';
import { encodePostToolOutput } from '../agents/encode-post-tool-output.ts';
import { LATEST_USAGE_READERS } from '../agents/latest-usage-readers.ts';
import type { PostToolContext, PostToolResult } from './post-tool-types.ts';
import { TOOL_CALL_WRITE_LAGS, waitForToolCall } from './wait-for-tool-call.ts';

/** Longest wait for a lagging transcript write of the reported call (several of Claude's 100 ms flushes). */
const TOOL_CALL_WAIT_MS = 400;

/** Time the checkpoint-state write needs before the deadline: the acting part's load and the state lock's 1 s wait. */
const STATE_WRITE_RESERVE_MS = 1500;

/** The alert's placeholder for `checkpoint` in the route's form (render-monitor-alert.ts leaves it to the hook). */
const CHECKPOINT_COMMAND = '{checkpointCommand}';

/**
 * The monitor's decision part (its own bundle, loaded once context checkpoints are on): the context
 * package's route-neutral `runMonitorHook` with the agent's tail reader, then its decision in the
 * agent's format. L1 is answered here (and counted through the acting part); L2/L3 go to the lazily
 * loaded acting part.
 */
export async function monitorAfterGate(session: MonitorSession, ctx: PostToolContext, writeMark?: string): Promise<PostToolResult> {
  const stateDir = ctx.stateDir();
  // The usage to read is the one of the call this hook reports: wait (bounded) until it is written.
  if (writeMark !== undefined && TOOL_CALL_WRITE_LAGS[ctx.agent] === true) {
    const waited = await waitForToolCall(session.transcriptPath, writeMark, Math.min(ctx.deadlineAt, Date.now() + TOOL_CALL_WAIT_MS));
    if (waited === 'timeout') ctx.warn(`post-tool: the transcript had not caught up with this tool call after ${TOOL_CALL_WAIT_MS} ms; reading the usage it has`);
  }
  const readLatestUsage = LATEST_USAGE_READERS[ctx.agent];
  const decision = await runMonitorHook(session, {
    agent: ctx.agent,
    stateDir,
    env: ctx.env,
    now: ctx.now,
    deadlineAt: ctx.deadlineAt,
    warn: ctx.warn,
    readLatestUsage,
  });
  const result = await answer(decision, session, ctx, stateDir);
  // Seed 004's checkpoint state, when the monitor's throttle says it is due: after the action, so a
  // handoff written now is on record first. Never at the answer's cost: a failure is a stderr line,
  // and with less time left than the write may take (the state lock's wait), it is skipped (the next
  // due call writes it), since past the deadline the harness answers its empty fallback instead.
  if (decision.checkpointState !== undefined && ctx.deadlineAt - Date.now() < STATE_WRITE_RESERVE_MS) {
    ctx.warn('post-tool: the checkpoint state is not recorded: too close to the deadline');
  } else if (decision.checkpointState !== undefined) {
    const notes = await ctx
      .recordState({ stateDir, agent: ctx.agent, sessionId: session.sessionId, snapshot: decision.checkpointState })
      .catch((error: unknown) => [`the checkpoint state is not recorded: ${reasonOf(error)}`]);
    for (const note of notes) ctx.warn(`post-tool: ${note}`);
  }
  return result;
}

/** The decision in the agent's format, carrying out an L2/L3 action through the acting part. */
async function answer(decision: MonitorHookDecision, session: MonitorSession, ctx: PostToolContext, stateDir: string): Promise<PostToolResult> {
  switch (decision.kind) {
    case 'nothing':
      return { output: '', code: decision.code, detail: decision.detail };
    case 'add-context': {
      const text = decision.text.includes(CHECKPOINT_COMMAND) ? forModelText(decision.text.replaceAll(CHECKPOINT_COMMAND, await checkpointCommandOf(ctx))) : decision.text;
      const output = encodePostToolOutput(ctx.agent, { context: text });
      // The level is claimed, so this is the session's one L1 warning: counted for `report`. Never at
      // the warning's cost: an acting part that cannot load is a stderr line, the warning still goes out.
      const note = await ctx
        .recordAlert({ stateDir, projectRoot: session.projectRoot, at: ctx.now(), percent: decision.percent })
        .catch((error: unknown) => `metrics: alert not recorded: ${reasonOf(error)}`);
      if (note !== undefined) ctx.warn(`post-tool: ${note}`);
      return { output, code: decision.code, detail: decision.detail };
    }
    case 'act': {
      const result = await ctx.act({
        agent: ctx.agent,
        action: decision.action,
        sessionId: session.sessionId,
        transcriptPath: session.transcriptPath,
        cwd: session.cwd,
        stateDir,
        env: ctx.env,
        now: ctx.now(),
        deadlineAt: ctx.deadlineAt,
      });
      for (const note of result.warnings) ctx.warn(note);
      const output = encodePostToolOutput(ctx.agent, {
        ...(result.context !== undefined ? { context: result.context } : {}),
        ...(result.userMessage !== undefined ? { userMessage: result.userMessage } : {}),
      });
      return { output, code: result.code, detail: result.detail };
    }
  }
}

/**
 * `checkpoint` in the route's form, which lives with the lazily loaded acting part. When that part
 * cannot load or its lookup throws: one stderr line, and the warning names the command-line form
 * (a settings install's) rather than being lost, since the level is claimed and would not warn again.
 */
async function checkpointCommandOf(ctx: PostToolContext): Promise<string> {
  try {
    return await ctx.checkpointCommand(ctx.agent, ctx.env);
  } catch (error) {
    ctx.warn(`post-tool: the route's checkpoint command is unknown (${reasonOf(error)}); the L1 warning names \`${CLI_USER_COMMANDS.agentCheckpoint}\``);
    return CLI_USER_COMMANDS.agentCheckpoint;
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
