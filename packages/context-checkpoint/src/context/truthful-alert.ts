/** The seed's L3 line (`SEED_ALERT_TEXTS.l3`): true only when direct execution makes the WIP commit. */
export const SEED_L3_COMMIT_LINE = 'Committing WIP changes and generating handoff NOW.';
/** What the L3 alert says instead when direct execution is off (the default): a handoff, no commit. */
export const L3_HANDOFF_ONLY_LINE = 'Generating handoff NOW (no WIP commit: directExecution is off).';

/**
 * An alert as true for the configuration: without direct execution nothing is committed, so the
 * seed's "Committing WIP changes" line is replaced. A user's own alert text is left as written.
 */
export function truthfulAlert(text: string, directExecution: boolean): string {
  return directExecution ? text : text.replace(SEED_L3_COMMIT_LINE, L3_HANDOFF_ONLY_LINE);
}
