/** Core's `isOwnCheckpoint` under its former name here (the turn-end pipeline now recognises our own checkpoints). */
export { isOwnCheckpoint as isOwnMessage } from '@agent-checkpoint/core';
export { runNotify, USAGE, type NotifyDeps, type NotifyOutcome, type NotifyRunResult } from './run-notify.ts';
export { parseNotifyArgv, type NotifyArgv, type NotifyOptions } from './parse-notify-argv.ts';
export { readNotifyPayload, isTitleThread, TITLE_THREAD_PROMPT_PREFIX, type NotifyPayloadResult, type TurnCompleteEvent } from './read-notify-payload.ts';
export { findCodexPane, isCodexArgv, parseTmuxEnv, type CodexPane, type FindPaneResult } from './find-codex-pane.ts';
export { waitForIdlePrompt, classifyScreen, readScreen, type ScreenState, type ScreenFacts } from './verify-idle-prompt.ts';
export { pasteAndSubmit, type PasteTimings, type PasteResult } from './paste-and-submit.ts';
export { deliverToPane, type DeliverOptions, type DeliveryResult } from './deliver-to-pane.ts';
export { sanitizeTypedText } from './sanitize-typed-text.ts';
export { spawnChainedNotify, type ChainResult } from './spawn-chained-notify.ts';
export { chooseTransport, type Transport } from './choose-transport.ts';
export { detectQueueSupport, resolveCodexCommand, queueSupportCachePath, type CodexCommand, type QueueSupport } from './detect-codex-queue.ts';
export { queueMessage, deleteQueuedItem, listQueuedItems, appServerRequest } from './codex-queue-client.ts';
export { findQueuedDelivery, waitForQueuedDelivery } from './confirm-queued-delivery.ts';
export { confirmQueuedJob, CONFIRM_QUEUE_COMMAND, type QueueJob, type QueueConfirmation } from './queue-confirmer.ts';
export { paneRunsThread } from './pane-runs-thread.ts';
