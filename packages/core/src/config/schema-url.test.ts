import { readFileSync } from 'node:fs';
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
