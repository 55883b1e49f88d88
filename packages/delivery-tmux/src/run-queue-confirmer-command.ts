import { isTruthyEnv, resolveStateDir } from '@agent-checkpoint/core';
import { createNotifyLogger } from './notify-logger.ts';
import { confirmQueuedJob, parseQueueJob } from './queue-confirmer.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Largest job accepted on stdin (the message plus a few paths). */
const MAX_JOB_BYTES = 4 * 1024 * 1024;
/** Time the delete may take after the confirmation deadline. */
const DELETE_ALLOWANCE_MS = 20_000;

/**
 * `agent-checkpoint-tmux __confirm-queue`: read one queued-item job from stdin, confirm or withdraw
 * it, log the outcome (stderr is detached, so the debug log is where it shows). Always exits 0,
 * and within the job's deadline plus {@link DELETE_ALLOWANCE_MS}.
 */
export async function runQueueConfirmerCommand(stdin: NodeJS.ReadableStream, env: Env): Promise<number> {
  let stateDir: string | undefined;
  try {
    stateDir = resolveStateDir({ env });
  } catch {
    stateDir = undefined;
  }
  const log = createNotifyLogger({ debug: isTruthyEnv(env['AGENT_CHECKPOINT_DEBUG']), stateDir });
  let text = '';
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.length > MAX_JOB_BYTES) break;
  }
  const job = text.length > MAX_JOB_BYTES ? undefined : parseQueueJob(text);
  if (job === undefined) {
    log.warn('queue confirmer: invalid job on stdin');
    return 0;
  }
  const net = setTimeout(() => {
    log.warn(`queue confirmer: gave up on ${job.queuedSubmissionId}`);
    process.exit(0);
  }, job.deadlineMs + DELETE_ALLOWANCE_MS);
  net.unref();
  await confirmQueuedJob(job, { env, log });
  return 0;
}
