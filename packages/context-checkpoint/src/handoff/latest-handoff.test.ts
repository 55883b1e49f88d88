import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killSnippets, lastJsonLine, runModuleSnippet } from '@agent-checkpoint/core/test-support';
import { latestHandoff } from './latest-handoff.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const NOW = new Date('2026-01-07T12:00:00.000Z');

let root: string;
let handoffs: string;
let stateDir: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ac-latest-handoff-')));
  handoffs = join(root, '.agent-checkpoint', 'handoffs');
  mkdirSync(handoffs, { recursive: true });
  stateDir = join(root, 'state');
  mkdirSync(stateDir, { mode: 0o700 });
});
afterEach(() => {
  killSnippets();
  rmSync(root, { recursive: true, force: true });
});

function writeHandoff(name: string, title: string): void {
  writeFileSync(join(handoffs, name), `---\nbranch: main\n---\n\n# Session Handoff: ${title}\n`);
  const t = new Date(NOW.getTime() - 60_000);
  utimesSync(join(handoffs, name), t, t);
}

describe('latestHandoff', () => {
  it('returns the newest by name, with its front matter', async () => {
    writeHandoff('2026-01-07-1145.md', 'first');
    writeHandoff('2026-01-07-1145-2.md', 'second');
    writeHandoff('2026-01-07-0930.md', 'older');
    const latest = await latestHandoff(root, { now: NOW, maxAgeMs: 3_600_000 });
    expect(latest).toMatchObject({ name: '2026-01-07-1145-2', relativePath: '.agent-checkpoint/handoffs/2026-01-07-1145-2.md', frontMatter: { branch: 'main' } });
  });

  it('skips a directory and an oversized file named like handoffs, with a diagnostic each', async () => {
    writeHandoff('2026-01-07-1100.md', 'readable');
    mkdirSync(join(handoffs, '2026-01-07-1145.md'));
    writeFileSync(join(handoffs, '2026-01-07-1130.md'), 'x'.repeat(1024 * 1024 + 1));
    const skipped: string[] = [];
    const latest = await latestHandoff(root, { onSkipped: (d) => skipped.push(d) });
    expect(latest?.name).toBe('2026-01-07-1100');
    expect(skipped).toEqual([
      `handoff: skipped ${join(handoffs, '2026-01-07-1145.md')}: not a regular file (a FIFO, socket or device)`,
      `handoff: skipped ${join(handoffs, '2026-01-07-1130.md')}: larger than 1048576 bytes`,
    ]);
  });
});

// A FIFO planted where a handoff is looked for must not wedge `resume-prompt` (latestHandoff) or
// `session-start` (claimResumeHandoff): each run in a child process, so a blocking open would hang only
// the child; the test's timeout is the deadline.
describe.skipIf(process.platform === 'win32')('a FIFO named like a handoff', () => {
  it('resume-prompt and session-start skip it with a diagnostic and return at once', { timeout: 60_000 }, async () => {
    writeHandoff('2026-01-07-1100.md', 'readable');
    execFileSync('mkfifo', [join(handoffs, '2026-01-07-1145.md')]);
    const script = `
      const { latestHandoff } = await import(${JSON.stringify(join(HERE, 'latest-handoff.ts'))});
      const { claimResumeHandoff } = await import(${JSON.stringify(join(HERE, '..', 'steps', 'resume-handoff.ts'))});
      const { recordWrittenHandoff } = await import(${JSON.stringify(join(HERE, 'handoff-provenance.ts'))});
      const { readFileSync } = await import('node:fs');
      const readable = ${JSON.stringify(join(handoffs, '2026-01-07-1100.md'))};
      recordWrittenHandoff(${JSON.stringify(stateDir)}, readable, readFileSync(readable, 'utf8'), new Date());
      const skipped = [];
      const latest = await latestHandoff(${JSON.stringify(root)}, { onSkipped: (d) => skipped.push(d) });
      const claim = await claimResumeHandoff({ projectRoot: ${JSON.stringify(root)}, stateDir: ${JSON.stringify(stateDir)}, now: new Date(${NOW.getTime()}), agent: 'claude', sessionId: 's1' });
      process.stdout.write(JSON.stringify({ latest: latest?.name ?? null, skipped, claim: claim.kind, injected: claim.kind === 'inject' ? claim.handoff.name : null }) + '\\n');`;
    const run = await runModuleSnippet(script, HERE);
    expect(run.code, run.stderr).toBe(0);
    expect(lastJsonLine(run.stdout)).toEqual({
      latest: '2026-01-07-1100',
      skipped: [`handoff: skipped ${join(handoffs, '2026-01-07-1145.md')}: not a regular file (a FIFO, socket or device)`],
      claim: 'inject',
      injected: '2026-01-07-1100',
    });
  });

  it('with only a FIFO there: no handoff, a diagnostic, and the session start goes on', { timeout: 60_000 }, async () => {
    execFileSync('mkfifo', [join(handoffs, '2026-01-07-1145.md')]);
    const script = `
      const { latestHandoff } = await import(${JSON.stringify(join(HERE, 'latest-handoff.ts'))});
      const { claimResumeHandoff } = await import(${JSON.stringify(join(HERE, '..', 'steps', 'resume-handoff.ts'))});
      const skipped = [];
      const latest = await latestHandoff(${JSON.stringify(root)}, { onSkipped: (d) => skipped.push(d) });
      const claim = await claimResumeHandoff({ projectRoot: ${JSON.stringify(root)}, stateDir: ${JSON.stringify(stateDir)}, now: new Date(${NOW.getTime()}), agent: 'codex' });
      process.stdout.write(JSON.stringify({ latest: latest ?? null, skipped: skipped.length, claim: claim.kind === 'none' ? claim.reason : claim.kind }) + '\\n');`;
    const run = await runModuleSnippet(script, HERE);
    expect(run.code, run.stderr).toBe(0);
    expect(lastJsonLine(run.stdout)).toEqual({ latest: null, skipped: 1, claim: 'no-handoff' });
  });
});
