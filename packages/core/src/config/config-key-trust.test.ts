import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { classifiedKeys, privilegedKeys, renderPrivilegedKeys } from './config-key-trust.ts';
import { PRIVILEGED_KEYS } from './config-privileged-keys.ts';
import { ConfigFileSchema, keyTrustOf } from './config-schema.ts';
import { privilegedSettings, stripPrivilegedKeys } from './strip-privileged-keys.ts';
// Build-time only, like the generator: core's keys and the known packages' config sections.
import { KNOWN_CONFIG_SECTIONS } from '../../scripts/known-config-sections.ts';

const sectionKeys = KNOWN_CONFIG_SECTIONS.flatMap((s) => Object.entries(s.schemas).flatMap(([key, schema]) => classifiedKeys(schema, [key])));

describe('every configuration key is classified safe or privileged', () => {
  const keys = [...classifiedKeys(), ...sectionKeys];

  it('walks every key of the schema, into nested objects and arrays of objects', () => {
    const names = keys.map((k) => k.path.join('.'));
    expect(names).toContain('runTests.command');
    expect(names).toContain('categories.[].include');
    expect(names).toContain('categories.[].verify.evidence');
    expect(names).toContain('context.thresholds.l1');
    expect(names.length).toBeGreaterThan(70);
  });

  it('no key is unclassified (a new key must be classified where the schema defines it)', () => {
    const unclassified = keys.filter((k) => k.trust !== 'safe' && typeof k.trust !== 'object').map((k) => k.path.join('.'));
    expect(unclassified, 'classify these keys in config-schema.ts (classify(…, { key: SAFE | { privileged: why } }))').toEqual([]);
  });

  it('an unclassified key or object is reported by the walk (the check above can fail)', () => {
    const inner = z.strictObject({ x: z.string() });
    const unclassified = classifiedKeys(z.strictObject({ plain: z.string().optional(), nested: inner.optional(), wrapped: z.array(inner.nullable()).optional() }));
    expect(unclassified).toEqual([
      { path: ['plain'], trust: undefined },
      { path: ['nested'], trust: undefined },
      { path: ['wrapped'], trust: undefined },
    ]);
    expect(keyTrustOf(inner)).toBeUndefined();
  });

  it('the privileged keys are the commands, write paths and switches that run or push', () => {
    expect(privilegedKeys(KNOWN_CONFIG_SECTIONS).map((k) => k.path.join('.'))).toEqual([
      'handoff.dir',
      'directExecution.enabled',
      'directExecution.memoryFile',
      'directExecution.commit',
      'directExecution.push',
      'directExecution.remote',
      'directExecution.noVerify',
      'directExecution.gitHooks',
      'directExecution.logFile',
      'directExecution.duringLoop',
      'runTests.enabled',
      'runTests.command',
      'tracker.enabled',
      'tracker.apiKeyEnv',
      'tracker.issuePattern',
      'tracker.commentOn',
      'memory.enabled',
    ]);
    for (const key of privilegedKeys(KNOWN_CONFIG_SECTIONS)) expect(key.why.length).toBeGreaterThan(10);
    // Each section derives the same list from its own schemas (defineConfigSection).
    expect(KNOWN_CONFIG_SECTIONS.flatMap((s) => s.privilegedKeys)).toEqual(privilegedKeys(KNOWN_CONFIG_SECTIONS).filter((k) => !Object.hasOwn(ConfigFileSchema.shape, k.path[0]!)));
  });

  it('config-privileged-keys.ts (the list the loader uses without zod) is up to date', () => {
    const committed = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'config-privileged-keys.ts'), 'utf8');
    expect(committed, 'stale: run `pnpm --filter @agent-checkpoint/core generate`').toBe(renderPrivilegedKeys(KNOWN_CONFIG_SECTIONS));
    expect(PRIVILEGED_KEYS).toEqual(privilegedKeys(KNOWN_CONFIG_SECTIONS));
  });

  it('the top-level keys of the schema are all there', () => {
    expect(new Set(keys.map((k) => k.path[0]))).toEqual(new Set([...Object.keys(ConfigFileSchema.shape), ...KNOWN_CONFIG_SECTIONS.flatMap((s) => Object.keys(s.schemas))]));
  });
});

describe('stripPrivilegedKeys', () => {
  it('removes privileged keys at any depth, also inside arrays, and leaves the input alone', () => {
    const config = { runTests: { command: 'x', timeoutMs: 5000 }, messages: { header: 'h' } };
    const keys = [
      { path: ['runTests', 'command'], why: 'runs' },
      { path: ['list', '[]', 'run'], why: 'runs' },
    ];
    const withList = { ...config, list: [{ run: 'a', keep: 1 }, { keep: 2 }] } as never;
    const { config: stripped, removed } = stripPrivilegedKeys(withList, keys);
    expect(stripped).toEqual({ runTests: { timeoutMs: 5000 }, messages: { header: 'h' }, list: [{ keep: 1 }, { keep: 2 }] });
    expect(removed.map((r) => r.key)).toEqual(['runTests.command', 'list[0].run']);
    expect(withList).toEqual({ ...config, list: [{ run: 'a', keep: 1 }, { keep: 2 }] });
    expect(privilegedSettings({ messages: { header: 'h' } })).toEqual([]);
    expect(stripPrivilegedKeys(config).removed).toEqual([{ key: 'runTests.command', value: 'x', why: expect.any(String) }]);
  });
});
