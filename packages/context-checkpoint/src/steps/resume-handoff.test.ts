import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordWrittenHandoff } from '../handoff/handoff-provenance.ts';
import { claimResumeHandoff, MAX_INJECTED_HANDOFF_CHARS, renderResumeContext } from './resume-handoff.ts';

let root: string;
let stateDir: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ac-resume-')));
  stateDir = realpathSync(mkdtempSync(join(tmpdir(), 'ac-resume-state-')));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(stateDir, { recursive: true, force: true });
});

const NOW = new Date('2026-01-07T12:00:00.000Z');
const HANDOFF = `---
session_date: 2026-01-07
session_time: "11:45"
branch: feature/ANV-123
checkpoint_trigger: L2 (context at 86%)
modified_files:
  - src/auth/oauth.ts
---

# Session Handoff: OAuth callback
`;

/** A handoff as `writeHandoff` leaves it: the file, and its record in the state directory. */
function writeHandoffFile(name: string, text = HANDOFF, ageMs = 60_000): void {
  const dir = join(root, '.agent-checkpoint', 'handoffs');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), text);
  recordWrittenHandoff(stateDir, join(dir, name), text, NOW);
  const t = new Date(NOW.getTime() - ageMs);
  utimesSync(join(dir, name), t, t);
}

describe('claimResumeHandoff', () => {
  it('injects the newest handoff once per repository, whatever the session', async () => {
    writeHandoffFile('2026-01-07-1130.md', HANDOFF.replace('OAuth callback', 'older'));
    writeHandoffFile('2026-01-07-1145.md');
    const first = await claimResumeHandoff({ projectRoot: root, stateDir, now: NOW, agent: 'claude', sessionId: 's1' });
    expect(first.kind).toBe('inject');
    if (first.kind !== 'inject') return;
    expect(first.handoff.relativePath).toBe('.agent-checkpoint/handoffs/2026-01-07-1145.md');
    expect(first.context).toBe(
      'The previous session ended with a context checkpoint (L2 (context at 86%), 2026-01-07 11:45). ' +
        'Read .agent-checkpoint/handoffs/2026-01-07-1145.md before continuing: it lists what was done, files in progress, failing commands and next steps. ' +
        'Files in progress: `src/auth/oauth.ts`. Do not restart the task from scratch.\n\n' +
        `${HANDOFF.trimEnd()}\n`,
    );
    expect(await claimResumeHandoff({ projectRoot: root, stateDir, now: NOW, agent: 'claude', sessionId: 's1' })).toMatchObject({ kind: 'none', reason: 'already-injected' });
    expect(await claimResumeHandoff({ projectRoot: root, stateDir, now: NOW, agent: 'gemini', sessionId: 's2' })).toMatchObject({ kind: 'none', reason: 'already-injected' });
    // A newer handoff is injected again.
    writeHandoffFile('2026-01-07-1150.md');
    expect((await claimResumeHandoff({ projectRoot: root, stateDir, now: NOW, agent: 'codex' })).kind).toBe('inject');
    expect(readdirSync(join(root, '.agent-checkpoint', 'injected'))).toHaveLength(2);
  });

  it('concurrent session starts: exactly one gets it', async () => {
    writeHandoffFile('2026-01-07-1145.md');
    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => claimResumeHandoff({ projectRoot: root, stateDir, now: NOW, agent: 'claude', sessionId: `s${i}` })));
    expect(claims.filter((c) => c.kind === 'inject')).toHaveLength(1);
  });

  it('ignores handoffs older than the window, and a repository without any', async () => {
    expect(await claimResumeHandoff({ projectRoot: root, stateDir, now: NOW, agent: 'claude' })).toMatchObject({ kind: 'none', reason: 'no-handoff' });
    writeHandoffFile('2026-01-05-1145.md', HANDOFF, 2 * 24 * 3_600_000);
    expect(await claimResumeHandoff({ projectRoot: root, stateDir, now: NOW, agent: 'claude' })).toMatchObject({ kind: 'none', reason: 'no-handoff' });
    expect((await claimResumeHandoff({ projectRoot: root, stateDir, now: NOW, agent: 'claude', maxAgeMs: 3 * 24 * 3_600_000 })).kind).toBe('inject');
  });

  it('an unwritable marker means no injection (never repeated forever)', async () => {
    writeHandoffFile('2026-01-07-1145.md');
    writeFileSync(join(root, '.agent-checkpoint', 'injected'), 'a file where the directory should be');
    expect(await claimResumeHandoff({ projectRoot: root, stateDir, now: NOW, agent: 'claude' })).toMatchObject({ kind: 'none', reason: 'unwritable' });
  });
});

describe('renderResumeContext', () => {
  it('cuts a huge handoff and says where the rest is', () => {
    const markdown = `${HANDOFF}${'x'.repeat(MAX_INJECTED_HANDOFF_CHARS * 2)}`;
    const text = renderResumeContext({ path: '/r/h.md', relativePath: 'h.md', name: 'h', markdown, frontMatter: {}, mtimeMs: 0 });
    expect(text.length).toBeLessThan(MAX_INJECTED_HANDOFF_CHARS + 600);
    expect(text).toContain(`[… cut at ${MAX_INJECTED_HANDOFF_CHARS} characters: read h.md for the rest]`);
  });
});
