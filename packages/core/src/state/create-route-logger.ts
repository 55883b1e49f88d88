import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Rotate `debug.log` to `debug.log.1` past this size, so the log stays bounded. */
const MAX_LOG_BYTES = 1024 * 1024;

/** Where a delivery route (hook or tmux notify) reports. */
export interface RouteLogger {
  /** Something the user may need to know (bad payload, internal error, deadline): one line on stderr. */
  warn(message: string): void;
  /** Decision details: stderr and the debug log, only in debug mode. */
  debug(message: string, data?: Record<string, unknown>): void;
  readonly debugEnabled: boolean;
}

/**
 * The logging convention both delivery routes share. Stderr lines are concise, prefixed, and one line
 * per diagnostic (a quoted path may hold a line break). Normal passes and blocks print nothing (Gemini
 * shows a passing hook's stderr to the user). With debug on, every event is also appended as a JSON
 * line to `<stateDir>/debug.log` (0600, rotated at 1 MiB) carrying `fields` (agent, route). Logging
 * never throws.
 */
export function createRouteLogger(options: {
  /** Prefix of every stderr line, so users can tell our notes from the agent's. */
  readonly prefix: string;
  readonly debug: boolean;
  readonly stateDir: string | undefined;
  /** Fields added to every debug-log line (e.g. `{ agent: 'codex', route: 'tmux' }`). */
  readonly fields: Readonly<Record<string, string>>;
  readonly stderr?: (line: string) => void;
}): RouteLogger {
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
      const line = JSON.stringify({ at: new Date().toISOString(), pid: process.pid, ...options.fields, level, message, ...data });
      appendFileSync(path, `${line}\n`, { mode: 0o600 });
    } catch {
      // Debug logging must never affect the run.
    }
  };
  return {
    debugEnabled: options.debug,
    warn(message) {
      writeStderr(`${options.prefix} ${oneLine(message)}\n`);
      append('warn', message);
    },
    debug(message, data) {
      if (!options.debug) return;
      writeStderr(`${options.prefix} ${oneLine(message)}\n`);
      append('debug', message, data);
    },
  };
}

/** One stderr line per diagnostic, whatever it quotes. */
function oneLine(message: string): string {
  return message.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}
