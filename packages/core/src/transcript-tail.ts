/**
 * `@agent-checkpoint/core/transcript-tail`: what a transcript package's tail reader of the newest usage
 * record (`readLatestUsage`) needs, and nothing else. The monitor after every tool call bundles those
 * readers; importing them from the package root would pull the root's whole graph (zod, the config
 * loader) into a bundle whose start-up is paid after every tool call (docs/benchmarks.md, "The monitor").
 */
export { readJsonlTail } from './transcript/read-jsonl-tail.ts';
export { latestUsageHistoryFloor, latestUsageOf, readLatestUsageFile, readLatestUsageRecords, type LatestUsageFile } from './transcript/resolve-latest-usage-request.ts';
export type { LatestUsage, ReadLatestUsageRequest } from './transcript/transcript-reader.ts';
