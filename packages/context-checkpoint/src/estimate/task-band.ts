/** Seed 004, Principle 4: the size of a task as a share of the whole window. */
export type TaskBand = 'small' | 'medium' | 'large';

/** Upper bounds of the bands, in percent of the window (seed 004, P4). */
export const BAND_LIMITS = { small: 30, medium: 60 } as const;

/** The band of a task estimated at `percentOfWindow` % of the window (P4: < 30 %, 30–60 %, > 60 %). */
export function taskBandOf(percentOfWindow: number): TaskBand {
  return percentOfWindow < BAND_LIMITS.small ? 'small' : percentOfWindow <= BAND_LIMITS.medium ? 'medium' : 'large';
}
