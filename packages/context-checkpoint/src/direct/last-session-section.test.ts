import { describe, expect, it } from 'vitest';
import { newMemoryFileText, renderLastSessionBody, replaceLastSessionSection } from './last-session-section.ts';

const body = ['- new line 1', '- new line 2'];

describe('replaceLastSessionSection', () => {
  it('appends the section to a file without one, keeping every existing byte', () => {
    const text = '# Rules\n\nUse pnpm.\n';
    const out = replaceLastSessionSection(text, body);
    expect(out).toBe('# Rules\n\nUse pnpm.\n\n## Last Session\n\n- new line 1\n- new line 2\n');
    expect(out.startsWith(text)).toBe(true);
  });

  it('completes a missing final newline only in the appended part', () => {
    expect(replaceLastSessionSection('# Rules', body)).toBe('# Rules\n\n## Last Session\n\n- new line 1\n- new line 2\n');
    expect(replaceLastSessionSection('', body)).toBe('## Last Session\n\n- new line 1\n- new line 2\n');
  });

  it('replaces a section in the middle up to the next ## heading, keeping ### subsections in it', () => {
    const before = '# Project\n\n## Rules\n\n- a\n\n';
    const after = '## Commands\n\n`make test`\n';
    const text = `${before}## Last Session (2026-01-06)\n\nold\n\n### Details\n\nold details\n\n${after}`;
    const out = replaceLastSessionSection(text, body);
    expect(out).toBe(`${before}## Last Session\n\n- new line 1\n- new line 2\n\n${after}`);
  });

  it('replaces a final section up to the end of the file', () => {
    const text = '# P\n\n## Last Session\n\nold\nmore old\n';
    expect(replaceLastSessionSection(text, body)).toBe('# P\n\n## Last Session\n\n- new line 1\n- new line 2\n');
  });

  it('stops at a level-1 heading too', () => {
    const text = '## Last Session\n\nold\n\n# Appendix\n\nkeep\n';
    expect(replaceLastSessionSection(text, body)).toBe('## Last Session\n\n- new line 1\n- new line 2\n\n# Appendix\n\nkeep\n');
  });

  it('ignores headings inside fenced code blocks', () => {
    const fenced = '```md\n## Last Session\nexample\n```\n';
    const text = `# P\n\n${fenced}\n## Other\n\nx\n`;
    expect(replaceLastSessionSection(text, body)).toBe(`${text}\n## Last Session\n\n- new line 1\n- new line 2\n`);
    // A "## " line inside a fence within the section does not end it.
    const inside = '## Last Session\n\nold\n~~~\n## not a heading\n~~~\nold\n\n## Next\n';
    expect(replaceLastSessionSection(inside, body)).toBe('## Last Session\n\n- new line 1\n- new line 2\n\n## Next\n');
  });

  it('keeps CRLF files CRLF and their other bytes untouched', () => {
    const text = '# Rules\r\n\r\n## Last Session\r\n\r\nold\r\n\r\n## Tail\r\nkeep\r\n';
    expect(replaceLastSessionSection(text, body)).toBe('# Rules\r\n\r\n## Last Session\r\n\r\n- new line 1\r\n- new line 2\r\n\r\n## Tail\r\nkeep\r\n');
  });

  it('keeps a byte order mark and unusual content before the section', () => {
    const text = '\uFEFF# Règles — ünïcode 😀\n\n## Last Session\n\nold\n';
    expect(replaceLastSessionSection(text, body)).toBe('\uFEFF# Règles — ünïcode 😀\n\n## Last Session\n\n- new line 1\n- new line 2\n');
  });

  it('replaces only the first section and is stable when applied twice', () => {
    const text = '## Last Session\n\na\n\n## Last Session\n\nb\n';
    const once = replaceLastSessionSection(text, body);
    expect(once).toBe('## Last Session\n\n- new line 1\n- new line 2\n\n## Last Session\n\nb\n');
    expect(replaceLastSessionSection(once, body)).toBe(once);
  });

  it('does not take "## Last Sessions overview" as its heading… but does take "## last session"', () => {
    expect(replaceLastSessionSection('## Last Sessions overview\n', body)).toContain('## Last Sessions overview\n\n## Last Session\n');
    expect(replaceLastSessionSection('## last session\nold\n', body)).toBe('## Last Session\n\n- new line 1\n- new line 2\n');
  });
});

describe('renderLastSessionBody / newMemoryFileText', () => {
  it('renders a short, bounded body', () => {
    const lines = renderLastSessionBody({
      when: '2026-01-07 11:45 UTC',
      trigger: 'L2 (context at 86%)',
      branch: 'main',
      handoff: '.agent-checkpoint/handoffs/2026-01-07-1145.md',
      handoffIsLocal: true,
      filesInProgress: Array.from({ length: 12 }, (_, i) => `f${i}.ts`),
      failing: ['pnpm test (exit 1)'],
      next: 'Fix the token exchange.\nThen the docs.',
    });
    expect(lines).toEqual([
      '<!-- Maintained by agent-checkpoint: this section is replaced at every automatic checkpoint. -->',
      '',
      '- **When**: 2026-01-07 11:45 UTC',
      '- **Checkpoint**: L2 (context at 86%)',
      '- **Branch**: main',
      '- **Handoff**: `.agent-checkpoint/handoffs/2026-01-07-1145.md` (local file, not committed)',
      '- **Files in progress**: `f0.ts`, `f1.ts`, `f2.ts`, `f3.ts`, `f4.ts`, `f5.ts`, `f6.ts`, `f7.ts`, `f8.ts`, `f9.ts` and 2 more',
      '- **Failing**: `pnpm test (exit 1)`',
      '- **Next**: Fix the token exchange. …',
    ]);
    expect(newMemoryFileText('CLAUDE.md', ['x'])).toBe('# CLAUDE.md\n\n## Last Session\n\nx\n');
  });
});
