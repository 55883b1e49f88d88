#!/usr/bin/env node
// Copies core's JSON Schema of `.agent-checkpoint.json` to dist/schema.json. The published package
// has no runtime dependencies (core is bundled), so an installed hook has no
// node_modules/@agent-checkpoint/core/schema.json to point a config's `$schema` at: it ships its own
// copy beside the bin, a data file no bundle can inline.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const source = createRequire(import.meta.url).resolve('@agent-checkpoint/core/schema.json');
mkdirSync(join(here, 'dist'), { recursive: true });
copyFileSync(source, join(here, 'dist', 'schema.json'));
