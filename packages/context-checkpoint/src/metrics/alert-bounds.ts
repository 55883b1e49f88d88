/**
 * Bounds of an `alert` event's numbers in the metrics log: the schema refuses a line outside them
 * (the log is untrusted on read), and the writers keep their values inside them so an alert is never
 * lost to a value its log would refuse. zod-free, so the hooks import it statically.
 */
export const ALERT_BOUNDS = {
  /** `percent`: a displayed context percentage (at most 100; room for a reader that does not cap). */
  maxPercent: 1000,
  /** `estimatedPercent`: a task's estimated share of the window (a forged plan can price millions). */
  maxEstimatedPercent: 1e6,
  /** `shards`: the shards a breakdown suggested. */
  maxShards: 1000,
} as const;
