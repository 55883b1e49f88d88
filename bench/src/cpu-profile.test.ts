import { describe, expect, it } from 'vitest';
import { attributeProfileData, COMPILE_GROUP, groupOfModule, LAUNCHER_GROUP, moduleLineMap, WRITE_CACHE_GROUP, type CpuProfile } from './cpu-profile.ts';

describe('moduleLineMap', () => {
  it('maps a line to the module whose // path comment precedes it', () => {
    const map = moduleLineMap(['var __esm = 1;', '// ../packages/core/src/git/run-git.ts', 'function a() {}', '// ../node_modules/.pnpm/zod@4.6.7/node_modules/zod/v4/mini/schemas.js', 'x();'].join('\n'));
    expect(map(0)).toBe('(bundle runtime)');
    expect(map(2)).toBe('../packages/core/src/git/run-git.ts');
    expect(map(4)).toContain('zod/v4/mini');
  });
});

describe('groupOfModule', () => {
  it('names the components of the report', () => {
    expect(groupOfModule('../packages/core/src/git/run-git.ts')).toBe('core: git');
    expect(groupOfModule('../packages/core/src/engine/run-heuristics.ts')).toBe('core: engine');
    expect(groupOfModule('../packages/transcript-codex/src/read-codex-turn.ts')).toBe('transcript reader');
    expect(groupOfModule('../node_modules/.pnpm/zod@4.6.7/node_modules/zod/v4/locales/de.js')).toBe('zod locales');
    expect(groupOfModule('../node_modules/.pnpm/zod@4.6.7/node_modules/zod/v4/classic/schemas.js')).toBe('zod (full, config schema)');
    expect(groupOfModule('../node_modules/.pnpm/zod@4.6.7/node_modules/zod/v4/core/core.js')).toBe('zod (mini + core)');
    expect(groupOfModule('(bundle runtime)')).toMatch(/module init/);
  });
});

describe('attributeProfileData', () => {
  // A launcher run: the launcher compiles the main bundle with vm.Script, runs it (the bundle calls
  // into git), and writes the code cache at exit.
  const launcher = 'file:///x/dist/agent-checkpoint-hook.cjs';
  const main = '/x/dist/agent-checkpoint-hook-main.cjs';
  const frame = (id: number, functionName: string, url: string, children: number[] = [], lineNumber = 0) => ({ id, callFrame: { functionName, url, lineNumber }, children });
  const profile: CpuProfile = {
    nodes: [
      frame(1, '(root)', '', [2, 9, 10, 11]),
      frame(2, '', launcher, [3, 4, 6, 7]),
      frame(3, 'Script', 'node:vm'),
      frame(4, 'runInThisContext', 'node:vm', [5]),
      frame(5, 'readGit', main, [8], 3),
      frame(6, 'readFileSync', 'node:fs'),
      frame(7, 'createCachedData', ''),
      frame(8, 'spawnSync', 'node:child_process'),
      frame(9, '(garbage collector)', ''),
      frame(10, '(idle)', ''),
      frame(11, 'prepareExecution', 'node:internal/process/pre_execution'),
    ],
    startTime: 0,
    endTime: 10_000,
    // One sample per node of interest, 1 ms each (timeDeltas[i + 1] is the length of sample i).
    samples: [3, 5, 8, 6, 7, 9, 10, 11],
    timeDeltas: [0, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
  };
  const lines = ['// runtime', '// ../packages/core/src/git/run-git.ts', 'a', 'b', 'c'].join('\n');

  it('books vm.Script to the compile, createCachedData to the cache write, bundle frames to their module', () => {
    const { groups, modules, wallMs, idleMs } = attributeProfileData(profile, { bundleUrlSuffix: '/agent-checkpoint-hook-main.cjs', launcherUrlSuffix: '/agent-checkpoint-hook.cjs', lineToModule: moduleLineMap(lines) });
    expect(groups).toEqual({
      [COMPILE_GROUP]: 1,
      'core: git': 2,
      [LAUNCHER_GROUP]: 1,
      [WRITE_CACHE_GROUP]: 1,
      'garbage collector': 1,
      'node bootstrap + module loader': 1,
    });
    // By module: only samples inside the bundle, node APIs it called included.
    expect(modules).toEqual({ '../packages/core/src/git/run-git.ts': 2 });
    expect(idleMs).toBe(1);
    expect(wallMs).toBe(10);
  });
});
