/**
 * The library entry of the tmux route: one `notify` run in-process (what the `agent-checkpoint-tmux`
 * bin runs), and the Codex app-server queue client the e2e queue test drives directly.
 */
export { runNotify, type NotifyDeps, type NotifyOutcome, type NotifyRunResult } from './run-notify.ts';
export { listQueuedItems, queueMessage } from './codex-queue-client.ts';
export { CONFIRM_QUEUE_COMMAND, type QueueJob } from './queue-confirmer.ts';
export type { CodexCommand } from './detect-codex-queue.ts';
