/**
 * The `memory` settings (seed 004, MEM-001..006), after defaults: claude-mem told about every L2/L3
 * handoff and named in resume prompts. Off by default. There is no URL here: the worker's loopback
 * address is resolved the way claude-mem resolves it (`claude-mem-worker-url.ts`), never from a
 * project's file.
 */
export interface MemorySettings {
  /** Save checkpoint observations and add the "Memory Query" section on resume. Privileged in config files. */
  readonly enabled: boolean;
  readonly provider: 'claude-mem';
  /** Budget of one worker call (its request and a retry), 200–10000 ms. The worker is local: short. */
  readonly timeoutMs: number;
}

/** The defaults: off. */
export const DEFAULT_MEMORY_SETTINGS: MemorySettings = { enabled: false, provider: 'claude-mem', timeoutMs: 2_000 };
