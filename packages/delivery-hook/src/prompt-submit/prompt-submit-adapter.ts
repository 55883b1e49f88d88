import { runPromptSubmitHook } from '@agent-checkpoint/context-checkpoint';
import { encodeContextDecision, openContextPayload } from '../aux-hook/open-context-payload.ts';
import type { AuxHookContext, AuxHookResult } from '../aux-hook/run-aux-hook.ts';
import { profileOf } from '../agents/profiles.ts';
import { agentToolCommandOf, installRouteOf } from '../route-commands.ts';
import { encodePromptSubmit } from './encode-prompt-submit.ts';

/**
 * `agent-checkpoint-hook prompt-submit <agent>` (Claude/Codex/Qwen UserPromptSubmit, Gemini BeforeAgent,
 * Copilot userPromptSubmitted):
 * the payload becomes the context package's `runPromptSubmitHook` event, its warning the agent
 * profile's prompt-submit answer. Never blocks.
 */
export async function runPromptSubmit(text: string, context: AuxHookContext): Promise<AuxHookResult> {
  const opened = openContextPayload('prompt-submit', text, context);
  if (opened.kind === 'done') return opened.result;
  const { transcriptPath, notUserPrompt } = opened.event;
  // The agent fired the event for a model request inside the turn: the user's prompt was answered already.
  if (notUserPrompt !== undefined) return { output: '', code: 'not-user-prompt', detail: notUserPrompt };
  if (opened.event.prompt === undefined) return { output: '', code: 'no-prompt', detail: 'the payload has no prompt' };
  const userPromptOf = await profileOf(context.agent).loadUserPromptOf?.();
  const prompt = userPromptOf === undefined ? opened.event.prompt : userPromptOf(opened.event.prompt);
  const decision = await runPromptSubmitHook(
    // The shard command in the warning is one the agent can run where this hook was installed.
    { prompt, ...(transcriptPath !== undefined ? { transcriptPath } : {}), toolCommand: agentToolCommandOf(installRouteOf(context.agent, context.env)) },
    opened.run,
  );
  return encodeContextDecision(decision, (warning) => encodePromptSubmit(context.agent, warning));
}
