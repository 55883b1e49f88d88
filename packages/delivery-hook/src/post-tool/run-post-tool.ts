import { findProjectRoot, type AgentId } from '@agent-checkpoint/core/hot-path';
import type { MonitorAction } from '@agent-checkpoint/context-checkpoint';
import { chooseRunCwd } from '../run-cwd.ts';
import { POST_TOOL_EVENTS, readPostToolPayload } from './post-tool-payload.ts';
import { probeContextConfig } from './probe-context-config.ts';

/** What the post-tool hook decided: its exact stdout, and a code and detail for the debug log and tests. */
export interface PostToolResult {
  readonly output: string;
  readonly code: string;
  readonly detail: string;
}

/** What the handler needs besides the payload. */
export interface PostToolContext {
  readonly agent: AgentId;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Fallback when the payload has no usable `cwd`. */
  readonly processCwd: string | undefined;
  /** Where the session states and switches live (`resolveStateDir`); resolved only past the gate. */
  readonly stateDir: () => string;
  /** The user configuration file (core's `userConfigPath`). */
  readonly userConfigFile: string;
  readonly now: () => Date;
  /** Epoch ms after which nothing more may start. */
  readonly deadlineAt: number;
  /** One stderr line. */
  readonly warn: (line: string) => void;
  /**
   * The part after the gate (context checkpoints are on): read the usage, decide, claim, act. Loaded
   * only then, so a disabled monitor parses none of it.
   */
  readonly loadMonitor: () => Promise<typeof import('./monitor-after-gate.ts').monitorAfterGate>;
  /**
   * Carry out an L2/L3 action (handoff, emergency commit): loaded only when the monitor acts, because
   * it needs the full configuration loader and the handoff and git code.
   */
  readonly act: (request: MonitorActRequest) => Promise<MonitorActResult>;
  /**
   * `checkpoint` as the agent runs it on the route this hook was installed by (an L1 alert names
   * it): loaded only when an alert does, since the route's command forms live with the agent profiles.
   */
  readonly checkpointCommand: (agent: AgentId, env: Readonly<Record<string, string | undefined>>) => Promise<string>;
}

/** An acting decision handed to the acting code, which re-checks it against the full configuration. */
export interface MonitorActRequest {
  readonly agent: AgentId;
  readonly action: Extract<MonitorAction, { kind: 'handoff' | 'emergency' }>;
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly cwd: string;
  readonly stateDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: Date;
  readonly deadlineAt: number;
}

/** What the acting code did: the texts to deliver (undefined: say nothing). */
export interface MonitorActResult {
  readonly context?: string;
  readonly userMessage?: string;
  readonly code: string;
  readonly detail: string;
  readonly warnings: readonly string[];
}

/**
 * `agent-checkpoint-hook post-tool <agent>` (Claude PostToolUse, Gemini AfterTool, Codex PostToolUse):
 * the monitor during the turn (MON-001..004, RLP-002). After every tool call it reads the newest usage
 * record from the transcript's tail, decides with `decideMonitorAction` and acts once per level per
 * session: L1 adds the warning as context for the model; L2 writes the handoff and asks the agent to
 * finish the current step and hand off; L3 writes the emergency handoff (and the WIP commit with
 * `directExecution.enabled`). The user is told (`systemMessage`) when a handoff or commit happened.
 *
 * Cheap by design: with `context.enabled` off (the default) it reads two small files and exits; the
 * acting code loads only when an action is due. Never blocks a tool; the result's `output` is `''`
 * or one JSON object valid for the agent. Never throws on bad input (stderr notes instead).
 */
export async function runPostTool(text: string, ctx: PostToolContext): Promise<PostToolResult> {
  const pass = (code: string, detail: string): PostToolResult => ({ output: '', code, detail });
  const read = readPostToolPayload(text);
  if ('error' in read) {
    ctx.warn(`post-tool: ${read.error}; doing nothing`);
    return pass('invalid-payload', read.error);
  }
  const event = read.event;
  if (event.eventName !== undefined && !POST_TOOL_EVENTS.has(event.eventName)) return pass('not-post-tool', `ignoring ${event.eventName}`);
  const where = chooseRunCwd(event.cwd, ctx.processCwd);
  if (where.kind === 'none') {
    ctx.warn(`post-tool: ${where.detail}; doing nothing`);
    return pass('cwd-unusable', where.detail);
  }
  const cwd = where.cwd;
  const projectRoot = findProjectRoot(cwd);
  // The configuration before the off switches: a disabled monitor (the default) then never loads
  // node:crypto (the switch paths are digests), the largest part of its start-up.
  const probe = await probeContextConfig(ctx.userConfigFile, projectRoot);
  for (const note of probe.notes) ctx.warn(`post-tool: config: ${note}`);
  if (!probe.enabled) return pass('disabled', 'context.enabled is not true');
  if (event.sessionId === undefined || event.transcriptPath === undefined) {
    return pass('no-session', 'the payload has no session_id or transcript_path');
  }

  const monitor = await ctx.loadMonitor();
  return monitor({ agent: ctx.agent, sessionId: event.sessionId, transcriptPath: event.transcriptPath, cwd, projectRoot, probe }, ctx);
}

