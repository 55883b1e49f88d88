import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA_FINGERPRINT } from './config-schema-fingerprint.ts';
import { ConfigFileSchema } from './config-schema.ts';
import { DEFAULT_CONFIG } from './default-config.ts';
import { PRESETS } from './presets/index.ts';
import { renderConfigurationDoc, renderJsonSchema, renderSchemaFingerprint } from './render-config-artifacts.ts';
// Build-time only, like the generator: the artifacts cover the known packages' config sections.
import { KNOWN_CONFIG_SECTIONS } from '../../scripts/known-config-sections.ts';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STALE = 'is stale: run `pnpm --filter @agent-checkpoint/core generate` and commit the result';

describe('generated configuration artifacts are up to date', () => {
  it('packages/core/schema.json', () => {
    expect(readFileSync(join(packageDir, 'schema.json'), 'utf8'), `schema.json ${STALE}`).toBe(renderJsonSchema(KNOWN_CONFIG_SECTIONS));
  });
  it('docs/configuration.md', () => {
    const committed = readFileSync(join(packageDir, '..', '..', 'docs', 'configuration.md'), 'utf8');
    expect(committed, `docs/configuration.md ${STALE}`).toBe(renderConfigurationDoc(Object.values(PRESETS), DEFAULT_CONFIG, KNOWN_CONFIG_SECTIONS));
  });
  it('src/config/config-schema-fingerprint.ts', () => {
    const committed = readFileSync(join(packageDir, 'src', 'config', 'config-schema-fingerprint.ts'), 'utf8');
    expect(committed, `config-schema-fingerprint.ts ${STALE}`).toBe(renderSchemaFingerprint(KNOWN_CONFIG_SECTIONS));
    expect(CONFIG_SCHEMA_FINGERPRINT).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the generated JSON Schema', () => {
  const schema = JSON.parse(renderJsonSchema(KNOWN_CONFIG_SECTIONS)) as Record<string, unknown>;

  it('is draft-07, closed, and describes every top-level key of the zod schema', () => {
    expect(schema['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema['additionalProperties']).toBe(false);
    const properties = schema['properties'] as Record<string, { description?: string }>;
    expect(Object.keys(properties).sort()).toEqual([...Object.keys(ConfigFileSchema.shape), ...KNOWN_CONFIG_SECTIONS.flatMap((s) => Object.keys(s.schemas))].sort());
    for (const [key, property] of Object.entries(properties)) expect(property.description, key).toBeTruthy();
  });

  it('keeps the constraints editors rely on (required keys, closed objects)', () => {
    const categories = (schema['properties'] as Record<string, { items: { required: string[]; additionalProperties: boolean } }>)[
      'categories'
    ];
    expect(categories?.items.required).toEqual(['id', 'include']);
    expect(categories?.items.additionalProperties).toBe(false);
  });
});

describe('docs/configuration.md', () => {
  const doc = renderConfigurationDoc(Object.values(PRESETS), DEFAULT_CONFIG);
  it('documents every preset and every nested object', () => {
    for (const id of Object.keys(PRESETS)) expect(doc).toContain(`| \`${id}\` |`);
    for (const section of ['categories[]', 'categories[].verify', 'followUps[]', 'errorPatterns[]', 'messages', 'hygiene', 'loopGuard', 'planDrift']) {
      expect(doc).toContain(`### \`${section}\``);
    }
  });
  it('has an example that is a valid configuration file', async () => {
    const { parseConfigText } = await import('./parse-config-file.ts');
    const example = /```jsonc\n([\s\S]*?)\n```/.exec(doc)?.[1];
    expect(example).toBeDefined();
    expect(parseConfigText(example ?? '')).toMatchObject({ ok: true });
  });
  it('shows built-in defaults', () => {
    expect(doc).toMatch(/\| `gitTimeoutMs` \| integer ≥ 100 \| `5000` \|/);
  });
});
