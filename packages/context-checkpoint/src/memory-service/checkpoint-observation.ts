/** A context checkpoint as recorded in claude-mem (seed 004, MEM-001/MEM-002). */
export interface CheckpointObservation {
  readonly level: 'L1' | 'L2' | 'L3';
  readonly percent?: number;
  readonly issueId?: string;
  /** Repo-relative path of the handoff document. */
  readonly handoffPath?: string;
  /** A few lines of what was going on (the handoff's title and next step). */
  readonly summary?: readonly string[];
  readonly iteration?: number;
  readonly branch?: string;
}

/** The concept every checkpoint observation is tagged with (MEM-001), and the word searches use. */
export const CHECKPOINT_CONCEPT = 'checkpoint';

/** Title prefix shared by every checkpoint observation: what {@link checkpointSearchQuery} searches for. */
export const CHECKPOINT_TITLE_PREFIX = 'Context Checkpoint';

/**
 * The predictable title the seed asks for (MEM-002): `Context Checkpoint L2 at 87% - ANV-123`.
 * Titles are single-line; the issue id is dropped when it is not a plain token.
 */
export function checkpointObservationTitle(observation: CheckpointObservation): string {
  const percent = observation.percent !== undefined ? ` at ${Math.round(observation.percent)}%` : '';
  const issue = observation.issueId !== undefined && /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(observation.issueId) ? ` - ${observation.issueId}` : '';
  return `${CHECKPOINT_TITLE_PREFIX} ${observation.level}${percent}${issue}`;
}

/**
 * The observation text. The worker's `/api/memory/save` stores a manual memory with empty `concepts`
 * whatever the request says, so the concept travels in two places a search can reach: the text (full-text
 * search) and `metadata.concepts` (kept with the row).
 */
export function checkpointObservationText(observation: CheckpointObservation): string {
  const lines = [`${checkpointObservationTitle(observation)}.`, `Concepts: ${CHECKPOINT_CONCEPT}, context-${observation.level.toLowerCase()}.`];
  if (observation.iteration !== undefined) lines.push(`Loop iteration: ${Math.trunc(observation.iteration)}.`);
  if (observation.branch !== undefined) lines.push(`Branch: ${oneLine(observation.branch)}.`);
  if (observation.handoffPath !== undefined) lines.push(`Handoff document: ${oneLine(observation.handoffPath)}`);
  for (const line of (observation.summary ?? []).slice(0, 12)) if (line.trim() !== '') lines.push(oneLine(line).slice(0, 300));
  return lines.join('\n');
}

/**
 * What a checkpoint search asks the worker for (MEM-006). Plain words, no FTS operators: the worker may
 * answer from its vector store or its SQLite full-text index; results are filtered by title afterwards.
 */
export function checkpointSearchQuery(level?: 'L1' | 'L2' | 'L3'): string {
  return level === undefined ? `${CHECKPOINT_TITLE_PREFIX} ${CHECKPOINT_CONCEPT}` : `${CHECKPOINT_TITLE_PREFIX} ${level}`;
}

function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}
