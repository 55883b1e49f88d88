/**
 * `@agent-checkpoint/core/session-state`: the session state file (read it, update it under its lock)
 * without the package root. The monitor records seed 004's checkpoint state after a tool call through
 * it (context-checkpoint's `./monitor-record`, delivery-hook's `…-monitor-record.cjs`): bundled from the
 * root, that write carried the configuration loader, the pipeline and the git code (1.1 MB).
 */
export { errorMessage, readSessionState, updateSessionState } from './state/session-state-store.ts';
