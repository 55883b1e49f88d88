import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as hotPath from './hot-path.ts';
import * as root from './index.ts';

describe('@agent-checkpoint/core/hot-path', () => {
  it('defines nothing of its own: only re-exports of core modules (never a fork)', () => {
    const source = readFileSync(new URL('./hot-path.ts', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    const statements = source.split(';').map((s) => s.trim()).filter((s) => s !== '');
    expect(statements.length).toBeGreaterThan(5);
    for (const statement of statements) expect(statement, statement).toMatch(/^export (type )?\{[^}]*\} from '\.\/[\w/.-]+\.ts'$/);
  });

  it('exports the very same values as the package root wherever both export a name', () => {
    // The root is narrowed to what other packages import (public-api.test.ts), so a name routes only
    // need early (checkTurnEndEarly) may live on the hot path alone.
    const shared = Object.keys(hotPath).filter((name) => Object.hasOwn(root, name));
    expect(shared.length).toBeGreaterThan(3);
    for (const name of shared) expect((root as Record<string, unknown>)[name], name).toBe((hotPath as Record<string, unknown>)[name]);
  });
});
