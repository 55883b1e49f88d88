import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { AgentId } from '../agent-id.ts';

/** Where the manifest lives, relative to the repository's `fixtures/` directory. */
export const PUBLIC_CORPUS_MANIFEST = 'public-corpus.json';

/** Licences the public corpus takes (redistribution allowed, attribution at most). */
export const PUBLIC_CORPUS_LICENCES = ['MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC', 'CC0-1.0', 'CC-BY-4.0'] as const;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex SHA-256');
const commit = z.string().regex(/^[0-9a-f]{40}$/, 'a full 40-hex commit id');

/** Where a corpus file came from. */
const sourceSchema = z
  .object({
    /** `owner/name` on GitHub. */
    repository: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/),
    /** The file's path in that repository at `commit`. */
    path: z.string().min(1),
    commit,
    /** The branch, when the file is not on the default branch (e.g. a session tool's checkpoint branch). */
    ref: z.string().min(1).optional(),
    /**
     * The licence, SPDX id first; free text may follow in parentheses (where it is declared when the
     * repository has no LICENSE file).
     */
    licence: z.string().refine((value) => PUBLIC_CORPUS_LICENCES.some((id) => value === id || value.startsWith(`${id} (`)), {
      message: `must start with one of ${PUBLIC_CORPUS_LICENCES.join(', ')}`,
    }),
    /** What kind of publication it is (a tool's test fixture, a committed CODEX_HOME, a checkpoint branch…). */
    kind: z.string().min(1),
  })
  .strict();

/** How a long file was cut. Always at a turn boundary: the first `keptTurns` whole turns are kept. */
const trimmedSchema = z
  .object({
    originalBytes: z.number().int().positive(),
    originalTurns: z.number().int().positive(),
    keptTurns: z.number().int().positive(),
    how: z.string().min(1),
  })
  .strict()
  .refine((t) => t.keptTurns < t.originalTurns, { message: 'a trimmed file keeps fewer turns than the original' });

/** One transcript of the public corpus. */
const entrySchema = z
  .object({
    /** Path relative to `fixtures/`: `<agent>/<version dir>/public/<name>`. */
    file: z.string().regex(/^(claude|codex|gemini)\/[^/]+\/public\/[^/]+$/),
    agent: z.enum(['claude', 'codex', 'gemini']),
    /** The CLI version; null when the file records none and it could not be pinned (see `versionSource`). */
    cliVersion: z.string().min(1).nullable(),
    /** `file: …` when the version comes from the file's own fields, otherwise `inferred from …`. */
    versionSource: z.string().regex(/^(file: |inferred from )/),
    format: z.enum(['claude-jsonl', 'codex-rollout-jsonl', 'gemini-session-json', 'gemini-session-jsonl']),
    source: sourceSchema,
    bytes: z.number().int().positive(),
    sha256,
    trimmed: trimmedSchema.nullable(),
  })
  .strict()
  .superRefine((entry, context) => {
    if (!entry.file.startsWith(`${entry.agent}/`)) context.addIssue({ code: 'custom', message: `${entry.file} is not under ${entry.agent}/` });
    const versionDir = entry.file.split('/')[1];
    if (entry.cliVersion !== null && versionDir !== entry.cliVersion) {
      context.addIssue({ code: 'custom', message: `${entry.file}: directory ${versionDir} differs from cliVersion ${entry.cliVersion}` });
    }
    if (entry.cliVersion === null && !entry.versionSource.startsWith('inferred from ')) {
      context.addIssue({ code: 'custom', message: `${entry.file}: no cliVersion, so versionSource must say what it is inferred from` });
    }
    if (entry.trimmed !== null && entry.trimmed.originalBytes <= entry.bytes) {
      context.addIssue({ code: 'custom', message: `${entry.file}: trimmed, but not smaller than the original` });
    }
  });

/** A file or set of files deliberately left out, with the reason (secrets, personal data, no licence…). */
const skippedSchema = z.object({ repository: z.string().min(1), path: z.string().min(1), ref: z.string().optional(), reason: z.string().min(1) }).strict();

/** The manifest `fixtures/public-corpus.json`. */
export const publicCorpusManifestSchema = z
  .object({
    description: z.string().min(1),
    entries: z.array(entrySchema).min(1),
    skipped: z.array(skippedSchema),
  })
  .strict()
  .superRefine((manifest, context) => {
    const seen = new Set<string>();
    for (const entry of manifest.entries) {
      if (seen.has(entry.file)) context.addIssue({ code: 'custom', message: `${entry.file} is listed twice` });
      seen.add(entry.file);
    }
  });

export type PublicCorpusManifest = z.infer<typeof publicCorpusManifestSchema>;
export type PublicCorpusEntry = PublicCorpusManifest['entries'][number];

/**
 * Read and validate the manifest. Throws with the zod issues when it is invalid: this runs in tests,
 * where a broken manifest must fail loudly.
 */
export function loadPublicCorpus(fixturesDir: string): PublicCorpusManifest {
  const raw: unknown = JSON.parse(readFileSync(join(fixturesDir, PUBLIC_CORPUS_MANIFEST), 'utf8'));
  return publicCorpusManifestSchema.parse(raw);
}

/** The corpus entries of one agent, with absolute paths. */
export function publicCorpusFiles(fixturesDir: string, agent: AgentId): { readonly entry: PublicCorpusEntry; readonly path: string }[] {
  return loadPublicCorpus(fixturesDir)
    .entries.filter((entry) => entry.agent === agent)
    .map((entry) => ({ entry, path: join(fixturesDir, entry.file) }));
}
