import type { ExecuteCheckpointResult } from './execute-checkpoint.ts';

/**
 * One line for the end-of-turn message (or a SessionStart/PreCompact hook) saying what direct
 * execution did, so the agent knows not to redo it. Undefined for `fallback`: the caller then asks
 * the agent to checkpoint (with the context line) instead.
 */
export function renderDirectResultLine(result: ExecuteCheckpointResult): string | undefined {
  if (result.status === 'fallback') return undefined;
  const handoff = result.handoff ? `handoff written to ${result.handoff.relativePath}` : 'no handoff written';
  if (result.status === 'nothing-changed') return `Checkpoint: ${handoff}; nothing changed since the last checkpoint, so no commit.`;
  const parts = [handoff];
  if (result.memoryFile !== undefined) parts.push(`${result.memoryFile} "## Last Session" updated`);
  if (result.commit) parts.push(`WIP commit ${result.commit.sha.slice(0, 7)}`);
  if (result.push?.status === 'pushed') parts.push(result.push.message);
  if (result.push?.status === 'failed') parts.push('push failed (the commit is local)');
  return `Checkpoint: ${parts.join(', ')}. Read the handoff before continuing; do not redo this checkpoint.`;
}
