import type { AgentId } from '@agent-checkpoint/core';
import type { MachineInfo } from './machine-info.ts';
import type { Summary } from './stats.ts';

/**
 * The targets of issue 22 ("The turn end at 1.5× its floor, inside one Node process"), each against
 * runs interleaved with the hook's in the same rounds of the same cell.
 */
export const TARGETS = {
  /** Blocking turn end median wall ≤ this × the design floor's (minimal-hook.ts), at 10 and at 5,000 changed files. */
  designFloorRatio: 1.5,
  /** The first run after install (empty code cache directory) median wall ≤ this × the design floor's. */
  firstRunDesignFloorRatio: 2,
  /** Hook median peak RSS ≤ the bare `node -e ''` median + this many MiB. */
  rssOverFloorMiB: 40,
} as const;

/** A cell's hook median wall time over its design floor's; NaN without design floor runs. */
export function designFloorRatioOf(hook: ProcessStats, minimal: ProcessStats | undefined): number {
  return minimal === undefined ? Number.NaN : hook.wallMs.median / minimal.wallMs.median;
}

/** Wall time and peak RSS of repeated runs of one command. */
export interface ProcessStats {
  readonly runs: number;
  readonly wallMs: Summary;
  readonly peakRssMiB: Summary;
  /** Mean user+system CPU time, ms (GNU time reports 10 ms steps; the mean smooths them). */
  readonly cpuMsMean: number;
}

/** The bare `node -e ''` runs interleaved with a cell's runs (the floor). */
export interface FloorStats extends ProcessStats {}

/** The monitor after every tool call: median wall ≤ this × bare node (issue 14). */
export const MONITOR_WALL_RATIO = 1.3;

/** The monitor's configurations measured (bench-monitor.ts): the bin started by node, and the plugin's sh launcher. */
export type MonitorCase = 'disabled' | 'enabled' | 'launcher-off' | 'launcher-on';

/** Context checkpoints off and no configuration file: the sh launcher's whole run, in ms (issue 24). */
export const LAUNCHER_OFF_WALL_MS = 3;

/** The monitor after every tool call (`post-tool`), one transcript size × configuration. */
export interface MonitorCell {
  readonly agent: AgentId;
  readonly sizeLabel: string;
  readonly fileBytes: number;
  readonly case: MonitorCase;
  readonly monitor: ProcessStats;
  readonly floor: FloorStats;
  /** monitor median wall / bare node median wall (issue 14's target: ≤ 1.3). */
  readonly wallRatio: number;
  readonly rssOverFloorMiB: number;
  /**
   * An empty hook, `sh -c :`, spawned the same way in the same rounds: what starting any hook command
   * costs through this harness (GNU time and node's spawnSync included), so the launcher's own share of
   * *launcher-off* reads as the difference. Absent in results written before 2026-11-28.
   */
  readonly emptyHook?: ProcessStats;
}

/** One hook cell: agent × transcript size × changed files. */
export interface HookCell {
  readonly agent: AgentId;
  readonly sizeLabel: string;
  readonly fileBytes: number;
  readonly changedFiles: number;
  readonly hook: ProcessStats;
  readonly floor: FloorStats;
  /** The design's floor: node + payload + `git rev-parse` ‖ `git status` + a 64 KiB tail read, nothing else. */
  readonly minimal?: ProcessStats;
  /** hook median wall / bare node median wall (information; the target is against the design floor). */
  readonly wallRatio: number;
  /** hook median wall / design floor median wall (issue 22's target; optional in results written before). */
  readonly designFloorRatio?: number;
  /** hook median RSS − floor median RSS, MiB. */
  readonly rssOverFloorMiB: number;
  /** What the hook answered: `block` (a checkpoint message) or `pass`, with counts. */
  readonly outcomes: Readonly<Record<string, number>>;
  /** First stderr line of any run, if any (a quiet hook prints nothing). */
  readonly stderrSample?: string;
  readonly meetsWall: boolean;
  readonly meetsRss: boolean;
  /**
   * The first run after install or upgrade: the same command with an empty code cache directory, so
   * the bundle is compiled from source and the cache is written at exit (a few runs interleaved with
   * the others). `hook` above is the steady state: the cache written by the warm-up run.
   */
  readonly firstRun?: ProcessStats;
  /** firstRun median wall / floor median wall. */
  readonly firstRunWallRatio?: number;
  /** firstRun median wall / design floor median wall. */
  readonly firstRunDesignFloorRatio?: number;
}

/** The naive full-file reader on one transcript. */
export interface NaiveCell {
  readonly agent: AgentId;
  readonly sizeLabel: string;
  readonly fileBytes: number;
  readonly stats: ProcessStats;
  /** Set when the naive read failed (e.g. ERR_STRING_TOO_LONG past V8's string limit). */
  readonly error?: string;
}

/** Tail read of one reader on one size, in-process and as a process. */
export interface TailReadCell {
  readonly agent: AgentId;
  readonly sizeLabel: string;
  readonly fileBytes: number;
  readonly bytesRead: number;
  readonly coldMs: number;
  readonly warmMs: Summary;
  /** RSS growth across the first read, MiB. */
  readonly rssGrowthMiB: number;
  /** heapUsed + external growth across the first read, MiB. */
  readonly heapGrowthMiB: number;
  readonly process: ProcessStats;
  readonly floor: FloorStats;
  /** Found the recorded turn: the hinted turn id / prompt, with the recorded number of calls. */
  readonly foundTurn: boolean;
  readonly calls: number;
  readonly truncated: boolean;
}

export interface PhaseCell {
  readonly agent: AgentId;
  readonly sizeLabel: string;
  readonly changedFiles: number;
  readonly importCoreMs: number;
  readonly importReaderMs: number;
  readonly cold: Readonly<Record<string, number>>;
  readonly warmMedian: Readonly<Record<string, number>>;
  readonly pipelineWarmMedianMs: number;
  readonly mode: string;
}

/** Where a hook process spends its time, from a V8 CPU profile of an unminified build. */
export interface ProfileBreakdown {
  readonly scenario: string;
  readonly wallMs: number;
  /** Sampled CPU time by group (compile, node internals, zod, core/git…), ms. */
  readonly groups: Readonly<Record<string, number>>;
  /** The costliest bundled modules (sampled CPU ms, largest first; optional in results written before). */
  readonly topModules?: Readonly<Record<string, number>>;
  /** Wall time without samples: waiting for git, disk, stdin. */
  readonly idleMs: number;
}

/** One start-up case in the three states of the hook's V8 code cache. */
export interface CodeCacheCases {
  /** The cache written by an earlier run: every turn after the first. */
  readonly warm: ProcessStats;
  /** An empty cache directory: the first run after install or upgrade (compile from source, write the cache at exit). */
  readonly miss: ProcessStats;
  /** `AGENT_CHECKPOINT_CODE_CACHE=0`: compiled from source every run, nothing written. */
  readonly off: ProcessStats;
}

export interface StartupInfo {
  /** What a hook start reads: the main bundle + the launcher (dist/). */
  readonly bundleBytes: number;
  readonly mainBundleBytes?: number;
  readonly launcherBytes?: number;
  /** The code cache file a full run leaves (main bundle's compiled functions). */
  readonly codeCacheBytes?: number;
  /** Source modules bundled (esbuild metafile inputs). */
  readonly bundledModules: number;
  /** Largest contributors to the bundle, KiB. */
  readonly bundleByPackageKiB: Readonly<Record<string, number>>;
  /** Modules actually evaluated on each path (instrumented build). */
  readonly evaluatedModules: Readonly<Record<string, { readonly count: number; readonly fullZod: boolean; readonly jsoncParser: boolean; readonly zodLocales: boolean }>>;
  /** Node built-in modules loaded: bare node vs the hook's paths. */
  readonly builtinModules: Readonly<Record<string, number>>;
  /** The replica of build-hook.mjs in the bench builds the shipped bundle byte for byte. */
  readonly replicaMatches: boolean;
  /** Exit time (performance.now() at process exit) of `hook version` minus that of `node -e ''`: loading and evaluating the bundle. */
  readonly importMs: number;
  /** The same with `AGENT_CHECKPOINT_CODE_CACHE=0` (compiled from source). */
  readonly importMsCacheOff?: number;
  /** The escape hatch with a warm code cache next to bare node. */
  readonly escapeHatch: { readonly hook: ProcessStats; readonly floor: FloorStats; readonly wallRatio: number };
  /** Escape hatch and a full run (claude, smallest transcript, 10 changed files) with the cache warm, missing and off, interleaved with bare node. */
  readonly codeCache?: { readonly floor: FloorStats; readonly escapeHatch: CodeCacheCases; readonly fullRun: CodeCacheCases };
  /** The hook's own per-phase timings (AGENT_CHECKPOINT_DEBUG=1 debug log), medians, ms. */
  readonly hookDebugTimings: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly profiles: readonly ProfileBreakdown[];
  readonly phases: readonly PhaseCell[];
}

/** One bundle variant of the hook, measured side by side with the shipped bundle. */
export interface VariantResult {
  readonly name: string;
  readonly description: string;
  /**
   * `bundling`: only the main bundle's esbuild options change (build-hook.mjs could adopt them);
   * `setting`: the shipped bin run differently by the user (an environment variable);
   * `proposal`: needs a change outside the build script (node flags in the hook command, another entry).
   */
  readonly kind: 'bundling' | 'setting' | 'proposal';
  readonly bytes: number;
  readonly escapeHatch: ProcessStats;
  readonly fullRun: ProcessStats;
  /** The full run in the repository with many (5,000) changed files. */
  readonly bigRun: ProcessStats;
  readonly floor: FloorStats;
  /**
   * Median over rounds of (this variant's wall ÷ the shipped bundle's wall in the same round): paired,
   * so load that drifts between rounds cancels out. 1 for the shipped bundle itself.
   */
  readonly pairedRatio: { readonly escapeHatch: number; readonly fullRun: number; readonly bigRun: number };
  /** Same stdout as the shipped bundle on every run. */
  readonly sameOutput: boolean;
  readonly error?: string;
}

export interface TmuxResult {
  readonly skipped?: string;
  readonly runs?: number;
  /** Notify process start → the fake TUI records the submission. */
  readonly startToSubmitMs?: Summary;
  /** Notify process start → the paste arrives in the pane. */
  readonly startToPasteMs?: Summary;
  /** Paste → submission (the deliberate Enter delay and confirmation). */
  readonly pasteToSubmitMs?: Summary;
  readonly notifyWallMs?: Summary;
  readonly notifyPeakRssMiB?: Summary;
  readonly floor?: FloorStats;
}

export interface SectionRun {
  readonly date: string;
  readonly mode: 'full' | 'quick';
  readonly loadAtStart: number;
  readonly loadAtEnd: number;
  readonly seconds: number;
}

export interface BenchResults {
  readonly schemaVersion: 1;
  readonly mode: 'full' | 'quick';
  readonly machine: MachineInfo;
  readonly loadAverageAtEnd: readonly [number, number, number];
  /** True when the machine was busy (1-minute load per core above 0.5 at start or end). */
  readonly noisy: boolean;
  readonly durationSeconds: number;
  readonly targets: typeof TARGETS;
  readonly notes: readonly string[];
  /** When each section was measured and under what load (sections not re-run keep their old entry). */
  readonly sections: Readonly<Record<string, SectionRun>>;
  readonly hook: readonly HookCell[];
  readonly naive: readonly NaiveCell[];
  readonly tailRead: readonly TailReadCell[];
  readonly tmux: TmuxResult;
  readonly startup?: StartupInfo;
  readonly variants: readonly VariantResult[];
  /** The monitor after every tool call; absent in results written before it existed. */
  readonly monitor?: readonly MonitorCell[];
}
