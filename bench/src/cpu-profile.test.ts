import { describe, expect, it } from 'vitest';
import { groupOfModule, moduleLineMap } from './cpu-profile.ts';

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
