import { lstatSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { appendSafelySync, UnsafePathError } from '../fs-safe/safe-write.ts';
import { forTerminal, jsonForTerminal } from '../text-safety/text-safety.ts';

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
 * line to `<stateDir>/debug.log` (0600, rotated at 1 MiB) carrying `fields` (agent, route), through
 * `appendSafelySync` (a planted link, FIFO or device is refused, said once on stderr). Logging never throws.
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
  let refusalReported = false;
  const append = (level: string, message: string, data?: Record<string, unknown>): void => {
    if (!options.debug || options.stateDir === undefined) return;
    try {
      const path = join(options.stateDir, 'debug.log');
      try {
        // lstat: a link planted as the log is never followed (the append below refuses it).
        const info = lstatSync(path);
        if (info.isFile() && info.size > MAX_LOG_BYTES) renameSync(path, `${path}.1`);
      } catch {
        // No log yet.
      }
      // One JSON line per event, safe to `cat` (C1 and bidi controls escaped as well as C0).
      const line = jsonForTerminal(JSON.stringify({ at: new Date().toISOString(), pid: process.pid, ...options.fields, level, message, ...data }));
      // Never through a symlink, into a FIFO or device, or in a state directory others can write to.
      appendSafelySync(options.stateDir, 'debug.log', `${line}\n`, { rootKind: 'private', mode: 0o600 });
    } catch (error) {
      // Debug logging must never affect the run; a refused write is said once on stderr.
      if (error instanceof UnsafePathError && !refusalReported) {
        refusalReported = true;
        writeStderr(`${options.prefix} ${oneLine(`debug log: ${error.message}`)}\n`);
      }
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

/**
 * One stderr line per diagnostic, whatever it quotes (file names, ids, paths): line breaks and every
 * other control character (ESC sequences, C1, BEL, bidi overrides) escaped — stderr is a terminal.
 */
function oneLine(message: string): string {
  return forTerminal(message, { keepLines: false });
}
