import { homedir } from 'node:os';
import type { ContextHookDecision, ContextHookRun } from '@agent-checkpoint/context-checkpoint';
import { answersHookEvent, type EventHookMode } from '../agents/hook-entries.ts';
import { profileOf } from '../agents/profiles.ts';
import { loadTranscriptReader } from '../load-transcript-reader.ts';
import { chooseRunCwd } from '../run-cwd.ts';
import { readContextHookPayload, type ContextHookEvent } from './read-context-hook-payload.ts';
import type { AuxHookContext, AuxHookResult } from './run-aux-hook.ts';

/** A payload turned into a context hook's run, or the result that ends the hook before it. */
export type OpenedContextPayload =
  | { readonly kind: 'run'; readonly event: ContextHookEvent; readonly run: ContextHookRun }
  | { readonly kind: 'done'; readonly result: AuxHookResult };

/**
 * The adapters' first half (payload → event): validate the payload with the agent profile's reader,
 * ignore an event the profile's hook entries do not register for this hook (a misrouted hook entry:
 * the adapters name no event), choose the working directory,
 * and build the run the route-neutral hook in context-checkpoint gets. The hook's early check comes
 * after, in the hook.
 */
export function openContextPayload(hook: Exclude<EventHookMode, 'post-tool'>, text: string, context: AuxHookContext): OpenedContextPayload {
  const done = (code: string, detail: string): OpenedContextPayload => ({ kind: 'done', result: { output: '', code, detail } });
  const profile = profileOf(context.agent);
  const read = readContextHookPayload(text, profile.readContextPayload, { env: context.env, home: homedir() });
  if ('error' in read) {
    context.log.warn(`${hook}: ${read.error}; doing nothing`);
    return done('invalid-payload', read.error);
  }
  const event = read.event;
  if (event.eventName !== undefined && !answersHookEvent(profile.hookEntries, hook, event.eventName)) return done(`not-${hook}`, `ignoring ${event.eventName}`);
  const where = chooseRunCwd(event.cwd, context.processCwd);
  if (where.kind === 'none') {
    context.log.warn(`${hook}: ${where.detail}; doing nothing`);
    return done('cwd-unusable', where.detail);
  }
  if (where.note !== undefined) context.log.warn(`${hook}: ${where.note}`);
  return {
    kind: 'run',
    event,
    run: {
      agent: context.agent,
      cwd: where.cwd,
      sessionId: event.sessionId,
      stateDir: context.stateDir,
      env: context.env,
      now: context.now,
      deadlineAt: context.deadlineAt,
      warn: (line) => context.log.warn(line),
      debug: (line) => context.log.debug(line),
      loadTranscriptReader: () => loadTranscriptReader(context.agent),
    },
  };
}

/** The adapters' second half (decision → the agent's format): `encode` is the agent profile's encoder. */
export function encodeContextDecision(decision: ContextHookDecision, encode: (text: string) => string): AuxHookResult {
  switch (decision.kind) {
    case 'add-context':
      return { output: encode(decision.text), code: decision.code, detail: decision.detail };
    case 'nothing':
      return { output: '', code: decision.code, detail: decision.detail };
  }
}
