// Shard manager (seed 004, SHD-001/002/004, P4): split a plan's open items into shards sized to the
// budget, write them as files, read their progress.
export * from './slugify.ts';
export * from './plan-shards.ts';
export * from './shard-paths.ts';
export * from './render-shard.ts';
export * from './write-shards.ts';
export * from './read-shard-progress.ts';
