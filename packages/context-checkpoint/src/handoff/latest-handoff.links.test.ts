import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { latestHandoff } from './latest-handoff.ts';

/*
 * Handoffs live in the repository: a link planted where one of them should be must not make the hook
 * read its target (a secret would flow into the model's context). Real symlinks to real files inside
 * the temp dir. (Moved from core's state-file-links.test.ts with the handoff code.)
 */
const SECRET = 'TOP-SECRET-7f3a';

let base: string;
let secret: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ac-handoff-links-')));
  secret = join(base, 'secret.json');
  writeFileSync(secret, JSON.stringify({ version: 1, turns: [], files: { [SECRET]: { sha256: 'a'.repeat(64), trustedAt: SECRET } } }));
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

function plant(path: string, target = secret): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  symlinkSync(target, path);
}

describe('handoff files are never read through a symlink', () => {
  it('handoffs: a symlinked newest handoff is skipped for the next real one; its target never becomes the handoff', async () => {
    const repo = join(base, 'repo');
    const dir = join(repo, '.agent-checkpoint', 'handoffs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '2026-01-01-0900.md'), '---\nsession: real\n---\n# Handoff\n');
    writeFileSync(secret, `---\nsession: ${SECRET}\n---\n${SECRET}\n`);
    plant(join(dir, '2026-01-02-0900.md'));
    const skipped: string[] = [];
    const handoff = await latestHandoff(repo, { onSkipped: (d) => skipped.push(d) });
    expect(handoff?.name).toBe('2026-01-01-0900');
    expect(handoff?.markdown).not.toContain(SECRET);
    expect(skipped).toEqual([`handoff: skipped ${join(dir, '2026-01-02-0900.md')}: a symlink (not followed)`]);
  });
});
