import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { AGENT_IDS, type AgentId } from '../agent-id.ts';
import { loadPublicCorpus, publicCorpusManifestSchema, type PublicCorpusManifest } from './public-corpus-manifest.ts';

// The manifest of the public corpus (fixtures/public-corpus.json): schema, files, hashes, layout, size.
// Each transcript package's public-corpus.test.ts checks the version against the file's own fields and
// runs the reader over every turn.
const fixtures = join(import.meta.dirname, '../../../../fixtures');
const manifest = loadPublicCorpus(fixtures);

/**
 * Distinct CLI versions per agent the corpus must keep: the five for each. Gemini chat files have
 * no version field; six of them name the running version in the CLI's own update notice (0.19.4 to
 * 0.23.0), the others count by the month their version is inferred from (see fixtures/PUBLIC-CORPUS.md).
 */
// Copilot CLI: none yet (its session logs live in ~/.copilot, not in repositories; none with a licence the
// corpus takes was found). Its reader is pinned by the recordings in fixtures/copilot/ instead.
// Qwen Code: none yet (no licensed public chat recording was found); fixtures/qwen/ pins its reader.
// Pi: no public session file under a licence the corpus takes has been collected yet; fixtures/pi/ pins its reader.
const MIN_VERSIONS: Record<AgentId, number> = { claude: 5, codex: 5, gemini: 5, copilot: 0, qwen: 0, pi: 0 };
const MAX_TOTAL_BYTES = 15 * 1024 * 1024;

describe('public corpus manifest', () => {
  it('parses with the schema', () => {
    expect(publicCorpusManifestSchema.safeParse(JSON.parse(readFileSync(join(fixtures, 'public-corpus.json'), 'utf8'))).success).toBe(true);
  });

  it.each(manifest.entries.map((entry) => [entry.file, entry] as const))('%s exists with the recorded size and SHA-256', (_file, entry) => {
    const path = join(fixtures, entry.file);
    expect(existsSync(path)).toBe(true);
    const bytes = readFileSync(path);
    expect(bytes.length).toBe(entry.bytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(entry.sha256);
  });

  it('lists every file under fixtures/*/*/public/ and nothing else', () => {
    const onDisk = fg.sync('*/*/public/**', { cwd: fixtures, onlyFiles: true }).sort();
    expect(onDisk).toEqual(manifest.entries.map((entry) => entry.file).sort());
  });

  it.each(AGENT_IDS.map((agent) => [agent] as const))('keeps at least the minimum number of %s versions', (agent) => {
    expect(versions(manifest, agent).size).toBeGreaterThanOrEqual(MIN_VERSIONS[agent]);
  });

  it(`stays under ${MAX_TOTAL_BYTES / 1024 / 1024} MiB`, () => {
    const total = manifest.entries.reduce((sum, entry) => sum + statSync(join(fixtures, entry.file)).size, 0);
    expect(total).toBeLessThan(MAX_TOTAL_BYTES);
  });

  it('rejects an entry whose licence is not one the corpus takes, and one without a version source', () => {
    const [first] = manifest.entries;
    if (!first) throw new Error('empty corpus');
    const gpl = { ...manifest, entries: [{ ...first, source: { ...first.source, licence: 'GPL-3.0' } }] };
    expect(publicCorpusManifestSchema.safeParse(gpl).success).toBe(false);
    const noVersion = { ...manifest, entries: [{ ...first, cliVersion: null, versionSource: 'file: nothing' }] };
    expect(publicCorpusManifestSchema.safeParse(noVersion).success).toBe(false);
    const wrongDir = { ...manifest, entries: [{ ...first, cliVersion: '0.0.1' }] };
    expect(publicCorpusManifestSchema.safeParse(wrongDir).success).toBe(false);
  });
});

function versions(corpus: PublicCorpusManifest, agent: AgentId): Set<string> {
  return new Set(corpus.entries.filter((entry) => entry.agent === agent).map((entry) => entry.cliVersion ?? entry.file.split('/')[1] ?? ''));
}
