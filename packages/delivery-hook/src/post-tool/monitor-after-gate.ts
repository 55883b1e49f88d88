import { claimMark, decideMonitorAction, estimateContextGrowth, implausibleUsage, lowerMarks, monitorMarksDir, readContextLevel, readMarks, readPendingTaskBand, type MonitorAction } from '@agent-checkpoint/context-checkpoint/monitor';
import type { AgentId } from '@agent-checkpoint/core';
import { forModelText, readOffSwitch } from '@agent-checkpoint/core/hot-path';
import { encodePostToolOutput } from '../agents/encode-post-tool-output.ts';
import { LATEST_USAGE_READERS } from '../agents/latest-usage-readers.ts';
import { readMonitorDeferral } from './monitor-deferral.ts';
import type { ContextProbe } from './probe-context-config.ts';
import type { PostToolContext, PostToolResult } from './run-post-tool.ts';

/** The alert's placeholder for `checkpoint` in the route's form (render-monitor-alert.ts leaves it to the hook). */
const CHECKPOINT_COMMAND = '{checkpointCommand}';

/** What passed the gate of {@link runPostTool}: context checkpoints are on, the session is known. */
export interface GatedPostTool {
  readonly agent: AgentId;
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly cwd: string;
  /** `findProjectRoot(cwd)`, for the project's off switch. */
  readonly projectRoot: string;
  readonly probe: ContextProbe;
}

/**
 * The monitor after the gate (MON-001..004): the newest usage record from the transcript's tail
 * (`readLatestUsage`, MON-001), its growth (`estimateContextGrowth`, MON-002), `decideMonitorAction`
 * (forecast and trajectory MON-003, Principle 1, once per level MON-004), the exclusive claim of the
 * level, then the action: L1 is answered here; L2/L3 go to the lazily loaded acting code.
 */
export async function monitorAfterGate(gated: GatedPostTool, ctx: PostToolContext): Promise<PostToolResult> {
  const pass = (code: string, detail: string): PostToolResult => ({ output: '', code, detail });
  const { probe } = gated;
  const stateDir = ctx.stateDir();
  const off = await readOffSwitch({ stateDir, sessionId: gated.sessionId, projectRoot: gated.projectRoot, env: ctx.env });
  for (const note of off.diagnostics) ctx.warn(note);
  if (off.off) return pass('switched-off', `checkpoints are off (${off.source})`);
  const latest = LATEST_USAGE_READERS[gated.agent]({ transcriptPath: gated.transcriptPath, deadlineAt: ctx.deadlineAt });
  // A forged or corrupt count (1e300 tokens) is no reading: no level, no action, one line saying why.
  const implausible = latest?.usage !== undefined ? implausibleUsage(latest.usage) : undefined;
  if (implausible !== undefined) ctx.warn(`post-tool: ${implausible}`);
  const reading = readContextLevel(latest?.usage, {
    ...(probe.windowTokens !== undefined ? { windowTokens: probe.windowTokens } : {}),
    ...(probe.thresholds !== undefined ? { thresholds: probe.thresholds } : {}),
  });
  const marksDir = monitorMarksDir(stateDir, gated.agent, gated.sessionId);
  // A marks directory that is a link or not private (planted: the state directory's path is handed to
  // the agent) is never read, written or deleted through: the monitor then acts on nothing.
  const unusable = (error: unknown): PostToolResult => {
    const why = error instanceof Error ? error.message : String(error);
    ctx.warn(`post-tool: level marks unusable (${why}); doing nothing`);
    return pass('marks-unusable', why);
  };
  let marks: Awaited<ReturnType<typeof readMarks>>;
  try {
    marks = await readMarks(marksDir);
    // A reading below a mark's (a compaction, /clear) forgets it, so the next climb is acted on again.
    if (reading?.level !== undefined && marks.length > 0) marks = await lowerMarks(marksDir, marks, reading);
  } catch (error) {
    return unusable(error);
  }
  // "One more task" (`checkpoint --defer`), live until the turn end consumes it.
  const deferral = readMonitorDeferral({ stateDir, agent: gated.agent, sessionId: gated.sessionId });
  if (deferral.diagnostic !== undefined) ctx.warn(`post-tool: ${deferral.diagnostic}`);
  // The current task's size from the estimate the prompt hook made at this turn's submit (P1: a large
  // task hands off early, a small one may finish first). None without the prompt hook.
  const task = reading?.level !== undefined ? readPendingTaskBand(stateDir, gated.sessionId, reading.contextWindow) : {};
  if (task.diagnostic !== undefined) ctx.warn(`post-tool: ${task.diagnostic}`);
  const action = decideMonitorAction({
    reading,
    growth: estimateContextGrowth(latest?.history),
    ...(task.band !== undefined ? { taskSize: task.band } : {}),
    // The marks are both routes' record (the turn end marks its handoffs and delivered lines).
    announced: marks.map((mark) => mark.level),
    ...(deferral.deferred !== undefined ? { deferred: deferral.deferred } : {}),
    ...(probe.thresholds !== undefined ? { config: { thresholds: probe.thresholds } } : {}),
  });
  if (action.kind === 'none') return pass(`none:${action.reason}`, describe(action));
  // Once per level per session, even with parallel tool calls: the exclusive mark decides who acts.
  let claimed: boolean;
  try {
    claimed = await claimMark(marksDir, { level: action.level, by: 'monitor', readingLevel: action.reading.level, readingPercent: action.reading.percent }, ctx.now());
  } catch (error) {
    return unusable(error);
  }
  if (!claimed) return pass('already-claimed', `${action.level} was claimed by another hook`);

  switch (action.kind) {
    case 'warn': {
      if (action.text === undefined) return pass('warned-silently', 'L1 text configured empty');
      const text = action.text.includes(CHECKPOINT_COMMAND) ? forModelText(action.text.replaceAll(CHECKPOINT_COMMAND, await ctx.checkpointCommand(gated.agent, ctx.env))) : action.text;
      return { output: encodePostToolOutput(gated.agent, { context: text }), code: 'warned', detail: describe(action) };
    }
    case 'handoff':
    case 'emergency': {
      const result = await ctx.act({
        agent: gated.agent,
        action,
        sessionId: gated.sessionId,
        transcriptPath: gated.transcriptPath,
        cwd: gated.cwd,
        stateDir,
        env: ctx.env,
        now: ctx.now(),
        deadlineAt: ctx.deadlineAt,
      });
      for (const note of result.warnings) ctx.warn(note);
      const output = encodePostToolOutput(gated.agent, {
        ...(result.context !== undefined ? { context: result.context } : {}),
        ...(result.userMessage !== undefined ? { userMessage: result.userMessage } : {}),
      });
      return { output, code: result.code, detail: result.detail };
    }
  }
}

function describe(action: MonitorAction): string {
  const percent = action.reading && action.reading.windowSource !== 'unknown' ? ` at ${action.reading.displayPercent}%` : '';
  return action.kind === 'none' ? `${action.reason}${percent}` : `${action.kind} ${action.level} (${action.reason})${percent}`;
}
