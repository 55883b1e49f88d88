import { runSessionStartHook } from '@agent-checkpoint/context-checkpoint';
import { encodeContextDecision, openContextPayload } from '../aux-hook/open-context-payload.ts';
import type { AuxHookContext, AuxHookResult } from '../aux-hook/run-aux-hook.ts';
import { encodeSessionStart } from './encode-session-start.ts';

/**
 * `agent-checkpoint-hook session-start <agent>`: the payload becomes the context package's
 * `runSessionStartHook` event, its decision the agent profile's SessionStart answer.
 */
export async function runSessionStart(text: string, context: AuxHookContext): Promise<AuxHookResult> {
  const opened = openContextPayload('session-start', text, context);
  if (opened.kind === 'done') return opened.result;
  const { source } = opened.event;
  const decision = await runSessionStartHook(source !== undefined ? { source } : {}, opened.run);
  return encodeContextDecision(decision, (context_) => encodeSessionStart(context.agent, context_));
}
