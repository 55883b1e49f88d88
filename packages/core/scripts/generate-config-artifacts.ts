// Writes the files generated from the configuration schema and the known config sections
// (`known-config-sections.ts`; run by `build` and `generate`):
//   packages/core/schema.json                            JSON Schema for editors ("$schema")
//   docs/configuration.md                                configuration reference
//   packages/core/src/config/config-schema-fingerprint.ts  cache key of validated config files
//   packages/core/src/config/config-privileged-keys.ts     keys a project file sets only once trusted
// `src/config/render-config-artifacts.test.ts` fails when a committed copy is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderPrivilegedKeys } from '../src/config/config-key-trust.ts';
import { KNOWN_CONFIG_SECTIONS } from './known-config-sections.ts';
import { DEFAULT_CONFIG } from '../src/config/default-config.ts';
import { PRESETS } from '../src/config/presets/index.ts';
import {
  renderConfigurationDoc,
  renderJsonSchema,
  renderSchemaFingerprint,
} from '../src/config/render-config-artifacts.ts';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const outputs: [string, string][] = [
  [join(packageDir, 'schema.json'), renderJsonSchema(KNOWN_CONFIG_SECTIONS)],
  [join(packageDir, '..', '..', 'docs', 'configuration.md'), renderConfigurationDoc(Object.values(PRESETS), DEFAULT_CONFIG, KNOWN_CONFIG_SECTIONS)],
  [join(packageDir, 'src', 'config', 'config-schema-fingerprint.ts'), renderSchemaFingerprint(KNOWN_CONFIG_SECTIONS)],
  [join(packageDir, 'src', 'config', 'config-privileged-keys.ts'), renderPrivilegedKeys(KNOWN_CONFIG_SECTIONS)],
];
for (const [path, content] of outputs) {
  let current: string | undefined;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = undefined;
  }
  const name = relative(process.cwd(), path);
  if (current === content) {
    console.log(`up to date: ${name}`);
  } else {
    writeFileSync(path, content);
    console.log(`wrote: ${name}`);
  }
}
