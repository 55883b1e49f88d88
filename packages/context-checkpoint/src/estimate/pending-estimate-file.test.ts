import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordPendingEstimate } from '../steps/pending-estimate.ts';
import { pendingEstimatePath, readPendingTaskBand } from './pending-estimate-file.ts';

const roots: string[] = [];
afterEach(() => {
  while (roots.length > 0) rmSync(roots.pop() ?? '', { recursive: true, force: true });
});

function stateDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'pending-band-'));
  roots.push(root);
  return join(root, 'state');
}

const FEATURES = { promptChars: 120, pathMentions: 1, bulletItems: 0, broadScope: 0, narrowScope: 1, planOpenItems: 0 };

describe('readPendingTaskBand (the monitor\'s task size, from the prompt hook\'s estimate)', () => {
  it('bands the estimate written at prompt submit against the window (P4: < 30 %, 30–60 %, > 60 %)', () => {
    const dir = stateDir();
    const write = (estimatedTokens: number): void => recordPendingEstimate(dir, 'sess-1', { at: '2026-11-26T10:00:00.000Z', features: FEATURES, estimatedTokens, contextTokensAtSubmit: 5000 });
    write(29_000);
    expect(readPendingTaskBand(dir, 'sess-1', 100_000)).toEqual({ band: 'small' });
    write(60_000);
    expect(readPendingTaskBand(dir, 'sess-1', 100_000)).toEqual({ band: 'medium' });
    write(60_001);
    expect(readPendingTaskBand(dir, 'sess-1', 100_000)).toEqual({ band: 'large' });
    // Another session's estimate is not this one's.
    expect(readPendingTaskBand(dir, 'sess-2', 100_000)).toEqual({});
  });

  it('no estimate is no band; a corrupt or foreign file is a diagnostic and no band', () => {
    const dir = stateDir();
    expect(readPendingTaskBand(dir, 'sess-1', 100_000)).toEqual({});
    const path = join(dir, pendingEstimatePath('sess-1'));
    mkdirSync(dirname(path), { recursive: true });
    for (const text of ['{"estimatedTokens": 1e12', '{"at":"x","estimatedTokens":-5}', '[]']) {
      writeFileSync(path, text);
      const read = readPendingTaskBand(dir, 'sess-1', 100_000);
      expect(read.band).toBeUndefined();
      expect(read.diagnostic).toContain('not a valid record');
    }
  });
});
