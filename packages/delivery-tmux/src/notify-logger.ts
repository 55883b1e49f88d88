import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Rotate `debug.log` to `debug.log.1` past this size, so the log stays bounded. */
const MAX_LOG_BYTES = 1024 * 1024;

/** Prefix of every stderr line (the same as the hook route's). */
export const STDERR_PREFIX = 'agent-checkpoint-tmux:';

/** Where a notify run reports. */
export interface NotifyLogger {
  /** Something the user may need to know (bad payload, half-done typing): one line on stderr. */
  warn(message: string): void;
  /** Decision details: stderr and the debug log, only in debug mode. */
  debug(message: string, data?: Record<string, unknown>): void;
  readonly debugEnabled: boolean;
}

/**
 * A logger for one notify run, following the hook route's convention: with `AGENT_CHECKPOINT_DEBUG`
 * on, every event is also appended as a JSON line to `<stateDir>/debug.log` (mode 0600, rotated at
 * 1 MiB), tagged `route: "tmux"`. Logging never throws.
 */
export function createNotifyLogger(options: {
  readonly debug: boolean;
  readonly stateDir: string | undefined;
  readonly stderr?: (line: string) => void;
}): NotifyLogger {
  const writeStderr = options.stderr ?? ((line: string) => void process.stderr.write(line));
  const append = (level: string, message: string, data?: Record<string, unknown>): void => {
    if (!options.debug || options.stateDir === undefined) return;
    try {
      mkdirSync(options.stateDir, { recursive: true, mode: 0o700 });
      const path = join(options.stateDir, 'debug.log');
      try {
        if (statSync(path).size > MAX_LOG_BYTES) renameSync(path, `${path}.1`);
      } catch {
        // No log yet.
      }
      const line = JSON.stringify({
        at: new Date().toISOString(),
        pid: process.pid,
        agent: 'codex',
        route: 'tmux',
        level,
        message,
        ...data,
      });
      appendFileSync(path, `${line}\n`, { mode: 0o600 });
    } catch {
      // Debug logging must never affect the run.
    }
  };
  return {
    debugEnabled: options.debug,
    warn(message) {
      writeStderr(`${STDERR_PREFIX} ${oneLine(message)}\n`);
      append('warn', message);
    },
    debug(message, data) {
      if (!options.debug) return;
      writeStderr(`${STDERR_PREFIX} ${oneLine(message)}\n`);
      append('debug', message, data);
    },
  };
}

/** One stderr line per diagnostic, whatever it quotes (a path may hold a line break). */
function oneLine(message: string): string {
  return message.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}
