import { createRouteLogger, type RouteLogger } from '@agent-checkpoint/core';

/** Prefix of every stderr line (the hook route's, with the tmux bin's name). */
export const STDERR_PREFIX = 'agent-checkpoint-tmux:';

/** Where a notify run reports (core's shared route logging convention). */
export type NotifyLogger = RouteLogger;

/** A logger for one notify run: debug-log lines are tagged `agent: "codex"`, `route: "tmux"`. */
export function createNotifyLogger(options: {
  readonly debug: boolean;
  readonly stateDir: string | undefined;
  readonly stderr?: (line: string) => void;
}): NotifyLogger {
  return createRouteLogger({
    prefix: STDERR_PREFIX,
    debug: options.debug,
    stateDir: options.stateDir,
    fields: { agent: 'codex', route: 'tmux' },
    ...(options.stderr ? { stderr: options.stderr } : {}),
  });
}
