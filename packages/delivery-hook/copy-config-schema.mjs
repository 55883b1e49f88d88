#!/usr/bin/env node
// Copies core's JSON Schema of `.agent-checkpoint.json` to dist/schema.json: the published package has
// no runtime dependencies (core is bundled), so it ships its own copy beside the bin, for editors set
// up to use a local file. `init` writes the one `$schema` form, core's published schema on unpkg
// (core `CONFIG_SCHEMA_URL`), never this machine path.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const source = createRequire(import.meta.url).resolve('@agent-checkpoint/core/schema.json');
mkdirSync(join(here, 'dist'), { recursive: true });
copyFileSync(source, join(here, 'dist', 'schema.json'));
