/** Summary of repeated measurements of one quantity. */
export interface Summary {
  readonly n: number;
  readonly median: number;
  /** 90th percentile, nearest rank (with fewer than 10 samples this is the maximum). */
  readonly p90: number;
  readonly min: number;
  readonly max: number;
}

/** Median (mean of the two middle values for an even count), p90 by nearest rank, min and max. */
export function summarize(values: readonly number[]): Summary {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { n: 0, median: Number.NaN, p90: Number.NaN, min: Number.NaN, max: Number.NaN };
  const mid = Math.floor(n / 2);
  const median = n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  const p90 = sorted[Math.min(n - 1, Math.ceil(0.9 * n) - 1)] as number;
  return { n, median, p90, min: sorted[0] as number, max: sorted[n - 1] as number };
}

/** Round for reports: one decimal below 100, integers above. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  return Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
}

export const KiB = 1024;
export const MiB = 1024 * 1024;
export const GiB = 1024 * 1024 * 1024;

/** `1 MiB`, `100 MiB`, `1 GiB`. */
export function formatBytes(bytes: number): string {
  if (bytes >= GiB) return `${round(bytes / GiB)} GiB`;
  if (bytes >= MiB) return `${round(bytes / MiB)} MiB`;
  if (bytes >= KiB) return `${round(bytes / KiB)} KiB`;
  return `${bytes} B`;
}
