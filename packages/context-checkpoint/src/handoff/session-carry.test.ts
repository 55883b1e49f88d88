import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@agent-checkpoint/core/test-support';
import { readContextLevel, type KnownContextReading } from '../context/read-context-level.ts';
import { extractDecisions, markdownHeadings, MAX_DECISIONS, readMemorySections, readPlanOpenItems } from './session-carry.ts';
import { timelineOf } from './test-timeline.ts';
import { writeHandoff } from './write-handoff.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});
function dir(): string {
  const d = makeTempDir();
  cleanups.push(d.remove);
  return d.dir;
}
const NOW = new Date('2026-01-07T11:45:00.000Z');
const reading = readContextLevel({ contextTokens: 172_000, contextWindow: 200_000 }) as KnownContextReading;

describe('extractDecisions', () => {
  it('finds Decision:/Decided: lines, "We decided" sentences and a Decisions section, not code or prose', () => {
    const text = [
      'Done with the callback.',
      'Decision: keep the token exchange server-side.',
      '- **Decision:** use PKCE for the public client',
      'We decided to drop the legacy /auth/v1 route.',
      'The decision was hard.', // prose mentioning a decision: not a statement
      '```',
      'Decision: this is an example in code',
      '```',
      '## Decisions',
      '- store refresh tokens encrypted',
      '1. rotate keys monthly',
      '## Next',
      '- not a decision',
      'decision: keep the token exchange server-side.', // said again: kept once
    ].join('\n');
    expect(extractDecisions([text, undefined])).toEqual([
      'keep the token exchange server-side.',
      'use PKCE for the public client',
      'We decided to drop the legacy /auth/v1 route.',
      'store refresh tokens encrypted',
      'rotate keys monthly',
    ]);
  });

  it('is bounded: at most MAX_DECISIONS, each at most 300 characters; huge whitespace lines cost linear time', () => {
    const many = Array.from({ length: 50 }, (_, i) => `Decision: choice ${i} ${'x'.repeat(400)}`).join('\n');
    const found = extractDecisions([many]);
    expect(found).toHaveLength(MAX_DECISIONS);
    expect(found.every((d) => d.length <= 300)).toBe(true);
    const started = performance.now();
    extractDecisions([`Decision${' '.repeat(150_000)}x\n${' '.repeat(150_000)}decided`]);
    // A hang bound, not a speed target: a quadratic scan of these 300 k characters takes minutes.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('memory sections and plan items', () => {
  it('headings of levels 1–3 outside code fences, closing hashes dropped', () => {
    expect(markdownHeadings('# Project\n\n## Build ##\n```\n# not a heading\n```\n### Tests\n#### too deep\n')).toEqual(['# Project', '## Build', '### Tests']);
  });

  it('reads files in the project only; a FIFO, an absolute path or .. is skipped', async () => {
    const root = dir();
    writeFileSync(join(root, 'CLAUDE.md'), '# Rules\n\n## Commands\n');
    writeFileSync(join(root, 'AGENTS.md'), 'no headings here\n');
    const outside = dir();
    writeFileSync(join(outside, 'secret.md'), '# Secret\n');
    expect(await readMemorySections(root, ['CLAUDE.md', 'AGENTS.md', 'GEMINI.md', join(outside, 'secret.md'), '../secret.md'])).toEqual([
      { file: 'CLAUDE.md', headings: ['# Rules', '## Commands'] },
    ]);
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'PLAN.md'), '- [x] done\n- [ ] parse the callback\nTODO: write tests\n');
    expect(await readPlanOpenItems(root, 'docs/PLAN.md')).toEqual({ items: ['parse the callback', 'write tests'], total: 2 });
    expect(await readPlanOpenItems(root, 'missing.md')).toBeUndefined();
  });

  it('a memory or plan file that is a link into .git/ is not read (issue 23)', async () => {
    const root = dir();
    mkdirSync(join(root, '.git', 'info'), { recursive: true });
    writeFileSync(join(root, '.git', 'info', 'notes.md'), '# Git internals\n- [ ] not a plan item\n');
    symlinkSync(join('.git', 'info', 'notes.md'), join(root, 'CLAUDE.md'));
    symlinkSync(join('.git', 'info', 'notes.md'), join(root, 'PLAN.md'));
    expect(await readMemorySections(root, ['CLAUDE.md'])).toEqual([]);
    expect(await readPlanOpenItems(root, 'PLAN.md')).toBeUndefined();
    expect(await readPlanOpenItems(root, '.GIT/info/notes.md')).toBeUndefined();
  });
});

describe('writeHandoff carries the session', () => {
  it('next steps from the plan, decisions from the last message, memory sections, remaining budget; untrusted text escaped', async () => {
    const root = dir();
    writeFileSync(join(root, 'CLAUDE.md'), '# Project\n\n## Build `x`\n\n## Conventions\n');
    writeFileSync(join(root, 'PLAN.md'), `- [x] step one\n- [ ] step two\n- [ ] step three \u001b[31mred\n`);
    const written = await writeHandoff({
      projectRoot: root,
      now: NOW,
      timeZone: 'UTC',
      data: {
        agent: 'claude',
        projectRoot: root,
        trigger: { kind: 'context', reading },
        planFile: 'PLAN.md',
        timeline: timelineOf([], { prompt: 'Work the plan', lastAssistantMessage: 'Step one is in.\nDecision: callbacks stay idempotent\n# Decisions\n- injected \u001b]0;title\u0007 text' }),
      },
    });
    if (!written.ok) throw new Error(written.error);
    const md = written.handoff.markdown;
    expect(md).toContain('## Remaining Context Budget\n\nEstimated 14% (~28,000 tokens) remained');
    expect(md).toContain('## Decisions This Session\n\n- callbacks stay idempotent\n- injected \\x1b]0;title\\x07 text\n\n## Next Steps');
    expect(md).toContain('Continue the plan in `PLAN.md`.\n\nOpen items of the plan (2):\n\n1. step two\n2. step three \\x1b[31mred\n');
    expect(md).toContain('- `CLAUDE.md`: agent memory file (project instructions)\n  sections to reload: `# Project`, `` ## Build `x` ``, `## Conventions`\n');
    expect(md).not.toContain('\u001b');
  });

  it('without decisions there is no Decisions section; a symlinked plan outside the project is not read', async () => {
    const root = dir();
    const outside = dir();
    writeFileSync(join(outside, 'plan.md'), '- [ ] outside item\n');
    symlinkSync(join(outside, 'plan.md'), join(root, 'PLAN.md'));
    const written = await writeHandoff({
      projectRoot: root,
      now: NOW,
      data: { agent: 'codex', projectRoot: root, trigger: { kind: 'manual' }, planFile: 'PLAN.md', timeline: timelineOf([], { lastAssistantMessage: 'All good.' }) },
    });
    if (!written.ok) throw new Error(written.error);
    expect(written.handoff.markdown).not.toContain('## Decisions This Session');
    expect(written.handoff.markdown).toContain('Continue the plan in `PLAN.md`.');
    expect(written.handoff.markdown).not.toContain('outside item');
  });
});
