import { homedir } from 'node:os';
import { openMonitorHook } from '@agent-checkpoint/context-checkpoint/monitor-gate';
import { answersHookEvent, HOOK_ENTRIES } from '../agents/hook-entries.ts';
import { POST_TOOL_PAYLOAD_READERS } from '../agents/post-tool-payload-readers.ts';
import { chooseRunCwd } from '../run-cwd.ts';
import { readPostToolPayload } from './post-tool-payload.ts';
import type { PostToolContext, PostToolResult } from './post-tool-types.ts';

/**
 * `agent-checkpoint-hook post-tool <agent>` (Claude, Codex and Qwen PostToolUse, Gemini AfterTool,
 * Copilot postToolUse; Qwen and Copilot also their failure event): the monitor during the turn
 * (MON-001..004, RLP-002). After every tool call it reads the newest usage record from the
 * transcript's tail, decides with `decideMonitorAction` and acts once per level per session: L1 adds
 * the warning as context for the model; L2 writes the handoff and asks the agent to finish the
 * current step and hand off; L3 writes the emergency handoff (and the WIP commit with
 * `directExecution.enabled`). The user is told (`systemMessage`) when a handoff or commit happened.
 *
 * Cheap by design: with `context.enabled` off (the default) it reads two small files and exits; the
 * acting code loads only when an action is due. Never blocks a tool; the result's `output` is `''`
 * or one JSON object valid for the agent. Never throws on bad input (stderr notes instead).
 */
export async function runPostTool(text: string, ctx: PostToolContext): Promise<PostToolResult> {
  const pass = (code: string, detail: string): PostToolResult => ({ output: '', code, detail });
  const own = POST_TOOL_PAYLOAD_READERS[ctx.agent];
  const read = readPostToolPayload(text, own === undefined ? undefined : { read: own, where: { env: ctx.env, home: homedir() } });
  if ('error' in read) {
    ctx.warn(`post-tool: ${read.error}; doing nothing`);
    return pass('invalid-payload', read.error);
  }
  const event = read.event;
  // The agent's own tool events, as its hook entries register them for this mode (not the profile: zod).
  if (event.eventName !== undefined && !answersHookEvent(HOOK_ENTRIES[ctx.agent], 'post-tool', event.eventName)) return pass('not-post-tool', `ignoring ${event.eventName}`);
  const where = chooseRunCwd(event.cwd, ctx.processCwd);
  if (where.kind === 'none') {
    ctx.warn(`post-tool: ${where.detail}; doing nothing`);
    return pass('cwd-unusable', where.detail);
  }
  // The monitor's early check (context-checkpoint): the config probe before the off switches, so a
  // disabled monitor (the default) never loads node:crypto (the switch paths are digests), the
  // largest part of its start-up; the switches follow in the decision part.
  const gate = await openMonitorHook({ cwd: where.cwd, sessionId: event.sessionId, transcriptPath: event.transcriptPath, userConfigFile: ctx.userConfigFile });
  for (const note of gate.diagnostics) ctx.warn(`post-tool: ${note}`);
  if (gate.kind === 'pass') return pass(gate.reason, gate.detail);
  const monitor = await ctx.loadMonitor();
  return monitor(gate.session, ctx, event.writeMark);
}
