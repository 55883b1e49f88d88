import { createRouteLogger, type RouteLogger } from '@agent-checkpoint/core/hot-path';

/** Prefix of every stderr line, so users can tell our notes from the agent's. */
export const STDERR_PREFIX = 'agent-checkpoint:';

/** Where a hook run reports (core's shared route logging convention). */
export type HookLogger = RouteLogger;

/** A logger for one hook run: debug-log lines carry the agent. */
export function createHookLogger(options: {
  readonly debug: boolean;
  readonly stateDir: string | undefined;
  readonly agent: string;
  readonly stderr?: (line: string) => void;
}): HookLogger {
  return createRouteLogger({
    prefix: STDERR_PREFIX,
    debug: options.debug,
    stateDir: options.stateDir,
    fields: { agent: options.agent },
    ...(options.stderr ? { stderr: options.stderr } : {}),
  });
}
