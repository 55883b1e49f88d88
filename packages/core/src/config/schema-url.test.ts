import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA_URL, CORE_VERSION } from './schema-url.ts';

const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { name: string; version: string; files: string[] };

describe('CONFIG_SCHEMA_URL', () => {
  it("names this package's published schema at this version", () => {
    expect(CORE_VERSION).toBe(pkg.version);
    expect(pkg.files).toContain('schema.json');
    expect(CONFIG_SCHEMA_URL).toBe(`https://unpkg.com/${pkg.name}@${pkg.version}/schema.json`);
  });
});

describe('one $schema form everywhere (issue 24.7)', () => {
  const root = join(import.meta.dirname, '..', '..', '..', '..');
  /** The docs and the example project: every `"$schema"` of a configuration file of ours. */
  const files = [
    'README.md',
    ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f)),
    join('fixtures', 'example', 'project', '.agent-checkpoint.json'),
  ];

  it('is the published schema of this version, as init writes it', () => {
    const found = files.flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/"\$schema":\s*"([^"]*)"/g)].map((m) => ({ file, schema: m[1] })),
    );
    expect(found.length).toBeGreaterThan(2);
    expect(found.filter((f) => f.schema !== CONFIG_SCHEMA_URL)).toEqual([]);
  });
});
