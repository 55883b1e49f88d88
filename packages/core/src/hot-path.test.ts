import { describe, expect, it } from 'vitest';
import * as hotPath from './hot-path.ts';
import * as root from './index.ts';

describe('@agent-checkpoint/core/hot-path', () => {
  it('exports the very same values as the package root (a subset, never a fork)', () => {
    const names = Object.keys(hotPath);
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) expect((root as Record<string, unknown>)[name], name).toBe((hotPath as Record<string, unknown>)[name]);
  });
});
