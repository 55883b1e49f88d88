import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from './resolve-config.ts';
// Build-time only, like the generator: the context checkpoint package's sections are in schema.json.
import { MEMORY_SECTION, resolveContextCheckpointConfig, resolveRunTests } from '../../../context-checkpoint/src/config/context-sections.ts';
import { parseTrackerSettings } from '../../../context-checkpoint/src/tracker/tracker-settings.ts';

// Every default is defined once (default-config.ts, or the section's DEFAULT_* beside its resolver);
// the schema's descriptions, and so schema.json and docs/configuration.md, quote those constants.

const schemaSource = readFileSync(new URL('./config-schema.ts', import.meta.url), 'utf8');
const sectionSource = readFileSync(new URL('../../../context-checkpoint/src/config/context-sections.ts', import.meta.url), 'utf8');
const resolverSource = readFileSync(new URL('./resolve-config.ts', import.meta.url), 'utf8');
const schemaJson = JSON.parse(readFileSync(new URL('../../schema.json', import.meta.url), 'utf8')) as unknown;

/** `[path, quoted default]` for every schema property whose description says "(default <number or "string">…". */
function describedDefaults(node: unknown, path: string[] = []): [string, string][] {
  if (node === null || typeof node !== 'object') return [];
  const record = node as Record<string, unknown>;
  const out: [string, string][] = [];
  const description = record['description'];
  const match = typeof description === 'string' ? /\(default (-?\d+|"[^"]*")[,)]/.exec(description) : null;
  if (match && path.length > 0) out.push([path.join('.'), match[1]!]);
  const properties = record['properties'];
  if (properties && typeof properties === 'object') {
    for (const [key, child] of Object.entries(properties)) out.push(...describedDefaults(child, [...path, key]));
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'definitions', '$defs']) {
    const child = record[key];
    if (Array.isArray(child)) for (const c of child) out.push(...describedDefaults(c, path));
    else if (child && typeof child === 'object' && key !== 'items') for (const c of Object.values(child)) out.push(...describedDefaults(c, path));
    else if (child && typeof child === 'object') out.push(...describedDefaults(child, path));
  }
  return out;
}

describe('configuration defaults', () => {
  it('schema descriptions write no default literally: they quote the one constant', () => {
    expect(schemaSource.match(/\(default (?:-?\d|"(?!\$\{))[^)]*\)/g) ?? []).toEqual([]);
    expect(sectionSource.match(/\(default (?:-?\d|"(?!\$\{))[^)]*\)/g) ?? []).toEqual([]);
    expect(resolverSource.match(/\?\? -?\d+/g) ?? []).toEqual([]);
  });

  it('every default schema.json states is the value the resolver applies', () => {
    const config = resolveConfig([]);
    const context = resolveContextCheckpointConfig([]);
    const runtime: Record<string, unknown> = {
      ...config,
      context: context.context,
      handoff: context.handoff,
      directExecution: context.directExecution,
      runTests: resolveRunTests({ command: 'true' }),
      tracker: parseTrackerSettings(undefined).settings,
      memory: MEMORY_SECTION.resolve([], MEMORY_SECTION.defaults).value,
    };
    const stated = describedDefaults(schemaJson);
    // precedence is per category/follow-up: checked against a resolved one below.
    const checked = stated.filter(([path]) => !path.endsWith('.precedence'));
    expect(checked.length).toBeGreaterThanOrEqual(12);
    for (const [path, quoted] of checked) {
      const value = path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], runtime);
      expect(JSON.stringify(value), path).toBe(quoted.startsWith('"') ? quoted : String(Number(quoted)));
    }
    const withCategory = resolveConfig([{ config: { categories: [{ id: 'x', include: ['x/**'] }], followUps: [{ id: 'f', action: 'do f', evidence: ['true'], triggeredBy: ['x'] }] }, source: { kind: 'default', name: 'test' } }]);
    const precedences = stated.filter(([path]) => path.endsWith('.precedence')).map(([, quoted]) => Number(quoted));
    expect(precedences.sort((a, b) => a - b)).toEqual([withCategory.categories[0]!.precedence, withCategory.followUps[0]!.precedence].sort((a, b) => a - b));
  });
});
