/** This package's version (schema-url.test.ts keeps it equal to package.json's). */
export const CORE_VERSION = '0.1.0';

/**
 * The one `$schema` of a configuration file (`init` writes it, the docs and the example use it): the
 * schema of this version as published with this package on npm, served by unpkg. A URL resolves the
 * same from every clone and on every machine — unlike a `file://` path beside the bin (one machine)
 * or `./node_modules/…` (only where the project installs this package) — and editors fetch http(s)
 * schemas (VS Code's `json.schemaDownload.enable`, on by default; JetBrains IDEs). Versioned, so a
 * file keeps validating against the keys of the version that wrote it (`init --force` moves it on).
 */
export const CONFIG_SCHEMA_URL = `https://unpkg.com/@agent-checkpoint/core@${CORE_VERSION}/schema.json`;
