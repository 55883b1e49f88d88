/**
 * The library entry of the hook package: one hook invocation in-process (what the
 * `agent-checkpoint-hook` bin runs), for embedding the checkpoint in another launcher.
 */
export { runHook, type HookRun, type HookRunCode, type HookRunContext } from './run-hook.ts';
