import { readFileSync } from 'node:fs';

export interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Which source module each line of an unminified esbuild bundle belongs to (from its `// path` comments). */
export function moduleLineMap(bundleText: string): (line: number) => string {
  const starts: { line: number; module: string }[] = [];
  const lines = bundleText.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const m = /^\s*\/\/ (\S+\.(?:ts|js|mjs|cjs))$/.exec(lines[i] as string);
    if (m) starts.push({ line: i, module: m[1] as string });
  }
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = '(bundle runtime)';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const start = starts[mid] as { line: number; module: string };
      if (start.line <= line) {
        found = start.module;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

/** The report group of a bundled module path. */
export function groupOfModule(module: string): string {
  if (/zod\/v4\/locales\//.test(module)) return 'zod locales';
  if (/zod\/(v4\/classic|v4\/core\/(json-schema|to-json-schema)|index\.js)/.test(module)) return 'zod (full, config schema)';
  if (/\/zod\//.test(module)) return 'zod (mini + core)';
  const core = /packages\/core\/src\/([^/]+)\//.exec(module)?.[1];
  if (core !== undefined) {
    if (core === 'git') return 'core: git';
    if (core === 'engine' || core === 'shell' || core === 'context') return 'core: engine';
    if (core === 'config') return 'core: config';
    if (core === 'state') return 'core: state (loop guard, lock)';
    if (core === 'transcript') return 'transcript reader';
    return 'core: other';
  }
  if (/packages\/core\/src\/get-checkpoint/.test(module)) return 'core: other';
  if (/packages\/transcript-/.test(module)) return 'transcript reader';
  if (/packages\/delivery-hook\//.test(module)) return 'hook entry (payload, stdout)';
  if (/node_modules/.test(module)) return 'dependencies (picomatch, ts-pattern, jsonc-parser…)';
  // esbuild's __esm/__commonJS helpers: V8 compiles a module body lazily when its init runs, and the
  // profiler books that compilation on the helper.
  return 'module init (lazy compile of module bodies)';
}

/** Where the bin's two files show up in a profile's call frames. */
export interface ProfileFiles {
  /** URL suffix of the main bundle (vm.Script reports its plain path: `/…/agent-checkpoint-hook-main.cjs`). */
  readonly bundleUrlSuffix: string;
  /** URL suffix of the launcher (`file:///…/agent-checkpoint-hook.cjs`). */
  readonly launcherUrlSuffix: string;
  readonly lineToModule: (line: number) => string;
}

/** Compiling the main bundle: `new vm.Script` compiles it from source, or deserializes the code cache. */
export const COMPILE_GROUP = 'compile bundle (vm.Script: source, or code cache)';
/** `script.createCachedData()` at exit: only on a run that writes the cache (first run, deeper path). */
export const WRITE_CACHE_GROUP = 'write code cache (createCachedData)';
/** The launcher's own work: read the bundle and the cache file, verify its digest (loading node:crypto), write a new cache. */
export const LAUNCHER_GROUP = 'launcher (read bundle + cache, sha256, the built-ins it loads)';

/** CPU time of one profile by report group and by bundled module. */
export interface ProfileAttribution {
  readonly groups: Record<string, number>;
  /** Milliseconds per bundled source module (its path in the bundle's comments); samples outside the bundle are not here. */
  readonly modules: Record<string, number>;
  readonly wallMs: number;
  readonly idleMs: number;
}

/** CPU time of one profile file by group; see {@link attributeProfileData}. */
export function attributeProfile(profilePath: string, files: ProfileFiles): ProfileAttribution {
  return attributeProfileData(JSON.parse(readFileSync(profilePath, 'utf8')) as CpuProfile, files);
}

/**
 * CPU time of one profile by group: each sample goes to the innermost frame of the main bundle on its
 * stack (so node APIs called by the git reader count as git); outside the bundle, `vm.Script` is the
 * bundle's compile (or code-cache deserialization), `createCachedData` the cache write, other frames
 * under the launcher the launcher's file work, else node bootstrap / GC / V8.
 */
export function attributeProfileData(profile: CpuProfile, files: ProfileFiles): ProfileAttribution {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const groupCache = new Map<number, string>();
  const moduleCache = new Map<number, string | undefined>();
  const groupOf = (id: number): string => {
    const cached = groupCache.get(id);
    if (cached !== undefined) return cached;
    moduleCache.set(id, undefined);
    const leaf = byId.get(id) as ProfileNode;
    let group: string | undefined;
    let underLauncher = false;
    let compiling = false;
    let writingCache = false;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = (byId.get(at) as ProfileNode).callFrame;
      if (frame.url.endsWith(files.bundleUrlSuffix)) {
        const module = files.lineToModule(frame.lineNumber);
        moduleCache.set(id, module);
        group = groupOfModule(module);
        break;
      }
      if (frame.url.endsWith(files.launcherUrlSuffix)) underLauncher = true;
      if (frame.url === 'node:vm' && frame.functionName === 'Script') compiling = true;
      if (frame.functionName === 'createCachedData') writingCache = true;
    }
    if (group === undefined) {
      const name = leaf.callFrame.functionName;
      if (name === '(idle)') group = 'idle';
      else if (name === '(garbage collector)') group = 'garbage collector';
      else if (name === '(program)') group = 'V8/native (program)';
      else if (compiling) group = COMPILE_GROUP;
      else if (writingCache) group = WRITE_CACHE_GROUP;
      else if (underLauncher) group = LAUNCHER_GROUP;
      // The CommonJS loader compiling the launcher itself (a few KiB).
      else if (name === 'compileSourceTextModule' || name === 'wrapSafe' || name === 'compileFunction') group = 'compile launcher';
      else group = 'node bootstrap + module loader';
    }
    groupCache.set(id, group);
    return group;
  };
  const groups: Record<string, number> = {};
  const modules: Record<string, number> = {};
  for (let i = 0; i < profile.samples.length; i += 1) {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const group = groupOf(profile.samples[i] as number);
    groups[group] = (groups[group] ?? 0) + dt;
    const module = moduleCache.get(profile.samples[i] as number);
    if (module !== undefined) modules[module] = (modules[module] ?? 0) + dt;
  }
  const wallMs = (profile.endTime - profile.startTime) / 1000;
  const idleMs = groups['idle'] ?? 0;
  delete groups['idle'];
  return { groups, modules, wallMs, idleMs };
}
