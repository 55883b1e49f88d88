import { mkdirSync, readFileSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readContextLevel, type KnownContextReading } from '../context/read-context-level.ts';
import { readGitSnapshot } from '@agent-checkpoint/core';
import { makeTempDir, makeTempGitRepo, type TempGitRepo } from '@agent-checkpoint/core/test-support';
import { IGNORE_ALL } from './agent-checkpoint-dir.ts';
import type { HandoffData } from './handoff-types.ts';
import { latestHandoff } from './latest-handoff.ts';
import { findMemoryFiles } from './memory-files.ts';
import { renderResumePrompt, renderSessionStartContext } from './render-resume.ts';
import { fileCall, shellCall, timelineOf } from './test-timeline.ts';
import { writeHandoff } from './write-handoff.ts';
import { FileExistsError, writeNewFile, writeUniqueFile } from './write-new-file.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function repo(options?: { commits?: boolean }): TempGitRepo {
  const r = makeTempGitRepo(options);
  cleanups.push(r.remove);
  return r;
}

const NOW = new Date('2026-01-07T11:45:00.000Z');
const reading = readContextLevel({ contextTokens: 174_000, contextWindow: 200_000 }) as KnownContextReading;

async function dataFor(r: TempGitRepo): Promise<HandoffData> {
  const git = await readGitSnapshot(r.dir, { timeoutMs: 10_000, env: r.env });
  return {
    agent: 'claude',
    projectRoot: r.dir,
    trigger: { kind: 'context', reading },
    git,
    timeline: timelineOf([fileCall('e', 'edit', [join(r.dir, 'src/app.ts')]), shellCall('t', 'pnpm test', 'success', 0)], {
      prompt: 'Add the app',
      lastAssistantMessage: 'Done with step 1 of 3.',
    }),
  };
}

function porcelain(r: TempGitRepo): string {
  return r.git(['status', '--porcelain=v1', '--untracked-files=all', '--ignored=no']);
}

describe('writeHandoff in a real repository', { timeout: 60_000 }, () => {
  it('writes .agent-checkpoint/handoffs/YYYY-MM-DD-HHMM.md, git-ignored without touching .gitignore', async () => {
    const r = repo();
    r.write('src/app.ts', 'export {};\n');
    r.write('CLAUDE.md', '# Rules\n');
    const before = porcelain(r);
    const result = await writeHandoff({ projectRoot: r.dir, data: await dataFor(r), now: NOW, timeZone: 'UTC' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.handoff.relativePath).toBe('.agent-checkpoint/handoffs/2026-01-07-1145.md');
    expect(result.handoff.name).toBe('2026-01-07-1145');
    const text = readFileSync(result.handoff.path, 'utf8');
    expect(text).toBe(result.handoff.markdown);
    expect(text).toContain('checkpoint_trigger: L2 (context at 87%)');
    expect(text).toContain('- `CLAUDE.md`: agent memory file (project instructions)');
    expect(text).toContain('- Edited: `src/app.ts`');
    expect(text).toContain('?? `src/app.ts`');
    // The directory is invisible to git, and the user's files are as they were.
    expect(porcelain(r)).toBe(before);
    expect(readFileSync(join(r.dir, '.agent-checkpoint', '.gitignore'), 'utf8')).toBe(IGNORE_ALL);
    expect(r.git(['check-ignore', '.agent-checkpoint/handoffs/2026-01-07-1145.md']).trim()).toBe('.agent-checkpoint/handoffs/2026-01-07-1145.md');
    expect(readdirSync(r.dir).sort()).toEqual(['.agent-checkpoint', '.git', 'CLAUDE.md', 'README.md', 'src']);
  });

  it('never overwrites: same minute gives -2, -3; an existing file keeps its bytes', async () => {
    const r = repo();
    const data = await dataFor(r);
    const dir = join(r.dir, '.agent-checkpoint', 'handoffs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '2026-01-07-1145.md'), 'user notes, keep me\n');
    const a = await writeHandoff({ projectRoot: r.dir, data, now: NOW, timeZone: 'UTC' });
    const b = await writeHandoff({ projectRoot: r.dir, data, now: NOW, timeZone: 'UTC' });
    expect(a.ok && a.handoff.name).toBe('2026-01-07-1145-2');
    expect(b.ok && b.handoff.name).toBe('2026-01-07-1145-3');
    expect(readFileSync(join(dir, '2026-01-07-1145.md'), 'utf8')).toBe('user notes, keep me\n');
    // No temp files are left behind.
    expect(readdirSync(dir).sort()).toEqual(['2026-01-07-1145-2.md', '2026-01-07-1145-3.md', '2026-01-07-1145.md']);
  });

  it('keeps an existing .agent-checkpoint/.gitignore', async () => {
    const r = repo();
    r.write('.agent-checkpoint/.gitignore', 'state/\n');
    const result = await writeHandoff({ projectRoot: r.dir, data: await dataFor(r), now: NOW, timeZone: 'UTC' });
    expect(result.ok).toBe(true);
    expect(readFileSync(join(r.dir, '.agent-checkpoint', '.gitignore'), 'utf8')).toBe('state/\n');
  });

  it('writes into a configured directory outside .agent-checkpoint without ignoring it', async () => {
    const r = repo();
    const result = await writeHandoff({ projectRoot: r.dir, data: await dataFor(r), now: NOW, timeZone: 'UTC', dir: 'docs/handoffs' });
    expect(result.ok && result.handoff.relativePath).toBe('docs/handoffs/2026-01-07-1145.md');
    expect(porcelain(r)).toContain('?? docs/handoffs/2026-01-07-1145.md');
  });

  it('works in a repository without commits and outside any repository', async () => {
    const unborn = repo({ commits: false });
    const u = await writeHandoff({ projectRoot: unborn.dir, data: await dataFor(unborn), now: NOW, timeZone: 'UTC' });
    expect(u.ok && u.handoff.markdown).toContain('branch: (no commits yet)');

    const plain = makeTempDir();
    cleanups.push(plain.remove);
    const git = await readGitSnapshot(plain.dir, { timeoutMs: 10_000, env: plain.env });
    const p = await writeHandoff({ projectRoot: plain.dir, data: { agent: 'codex', projectRoot: plain.dir, trigger: { kind: 'manual' }, git }, now: NOW, timeZone: 'UTC' });
    expect(p.ok && p.handoff.markdown).toContain('git_status: not a git repository');
  });

  it('reports an I/O failure instead of throwing', async () => {
    const r = repo();
    r.write('.agent-checkpoint/handoffs', 'a file where the directory should be');
    const result = await writeHandoff({ projectRoot: r.dir, data: await dataFor(r), now: NOW, timeZone: 'UTC' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^handoff: cannot write in .*handoffs: /);
  });
});

describe('writeNewFile / writeUniqueFile', { timeout: 60_000 }, () => {
  it('refuses to replace an existing file or a symlink', async () => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    writeFileSync(join(d.dir, 'target'), 'original');
    symlinkSync(join(d.dir, 'target'), join(d.dir, 'link.md'));
    await expect(writeNewFile(join(d.dir, 'link.md'), 'x')).rejects.toBeInstanceOf(FileExistsError);
    expect(readFileSync(join(d.dir, 'target'), 'utf8')).toBe('original');
    expect(await writeUniqueFile(d.dir, 'link', '.md', 'new')).toBe(join(d.dir, 'link-2.md'));
  });
});

describe('latestHandoff', { timeout: 60_000 }, () => {
  it('picks the newest by name, suffixes numerically, ignoring temp and foreign files', async () => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    const dir = join(d.dir, '.agent-checkpoint', 'handoffs');
    mkdirSync(dir, { recursive: true });
    for (const name of ['2026-01-07-1145.md', '2026-01-07-1145-2.md', '2026-01-07-1145-10.md', '2026-01-06-2359.md', 'README.md', '.2026-01-08-0000.md.1.tmp', '2026-01-08-0000.txt']) {
      writeFileSync(join(dir, name), `---\nsession_date: 2026-01-07\n---\n# ${name}\n`);
    }
    const latest = await latestHandoff(d.dir);
    expect(latest?.name).toBe('2026-01-07-1145-10');
    expect(latest?.relativePath).toBe('.agent-checkpoint/handoffs/2026-01-07-1145-10.md');
    expect(latest?.frontMatter).toEqual({ session_date: '2026-01-07' });
  });

  it('returns undefined without a directory, or when the newest is older than maxAgeMs', async () => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    expect(await latestHandoff(d.dir)).toBeUndefined();
    const dir = join(d.dir, 'h');
    mkdirSync(dir);
    writeFileSync(join(dir, '2026-01-07-1145.md'), '# x\n');
    const mtime = new Date('2026-01-07T11:45:00Z');
    utimesSync(join(dir, '2026-01-07-1145.md'), mtime, mtime);
    expect(await latestHandoff(d.dir, { dir: 'h', now: new Date('2026-01-07T12:45:00Z'), maxAgeMs: 2 * 3600_000 })).toBeDefined();
    expect(await latestHandoff(d.dir, { dir: 'h', now: new Date('2026-01-08T12:45:00Z'), maxAgeMs: 2 * 3600_000 })).toBeUndefined();
  });

  it('skips an unreadable newest file in favour of the next', async () => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    const dir = join(d.dir, '.agent-checkpoint', 'handoffs');
    mkdirSync(join(dir, '2026-01-09-0000.md'), { recursive: true }); // a directory with a handoff's name
    writeFileSync(join(dir, '2026-01-08-0000.md'), '# ok\n');
    expect((await latestHandoff(d.dir))?.name).toBe('2026-01-08-0000');
  });
});

describe('resume texts from a written handoff', { timeout: 60_000 }, () => {
  it('renders the PROMPT.md section and the SessionStart context', async () => {
    const r = repo();
    r.write('src/app.ts', 'x\n');
    r.write('src/other.ts', 'y\n');
    const written = await writeHandoff({ projectRoot: r.dir, data: await dataFor(r), now: NOW, timeZone: 'UTC' });
    expect(written.ok).toBe(true);
    const handoff = await latestHandoff(r.dir);
    expect(handoff).toBeDefined();
    if (!handoff) return;
    expect(renderResumePrompt(handoff)).toBe(`## CONTEXT CHECKPOINT RESUME

> This iteration is resuming from a context checkpoint.
> The previous session stopped at L2 (context at 87%) on 2026-01-07 11:45.

### Resume From

- **Handoff**: .agent-checkpoint/handoffs/2026-01-07-1145.md
- **Branch**: main
- **Files in progress**: \`src/app.ts\`, \`src/other.ts\`

### Instructions

1. DO NOT restart the task from scratch.
2. Read the handoff document first.
3. Continue from where the previous session left off.
`);
    const context = renderSessionStartContext(handoff);
    expect(context).toBe(
      'The previous session ended with a context checkpoint (L2 (context at 87%), 2026-01-07 11:45). Read .agent-checkpoint/handoffs/2026-01-07-1145.md before continuing: it lists what was done, files in progress, failing commands and next steps. Files in progress: `src/app.ts`, `src/other.ts`. Do not restart the task from scratch.',
    );
    expect(context.length).toBeLessThan(600);
  });

  it('caps the files named and copes with a handoff without front matter', () => {
    const files = Array.from({ length: 14 }, (_, i) => `f${i}.ts`);
    const handoff = { path: '/x', relativePath: 'h/x.md', name: 'x', markdown: '', frontMatter: { modified_files: files }, mtimeMs: 0 };
    expect(renderSessionStartContext(handoff)).toContain('`f9.ts` and 4 more');
    const bare = { ...handoff, frontMatter: {} };
    expect(renderSessionStartContext(bare)).toBe(
      'The previous session ended with a context checkpoint. Read h/x.md before continuing: it lists what was done, files in progress, failing commands and next steps. Do not restart the task from scratch.',
    );
    expect(renderResumePrompt(bare)).toContain('> The previous session stopped at a checkpoint.');
  });
});

describe('findMemoryFiles', { timeout: 60_000 }, () => {
  it('lists existing memory files, the agent\'s own first, following symlinks', async () => {
    const d = makeTempDir();
    cleanups.push(d.remove);
    expect(await findMemoryFiles(d.dir, 'codex')).toEqual([]);
    writeFileSync(join(d.dir, 'CLAUDE.md'), '# c\n');
    symlinkSync('CLAUDE.md', join(d.dir, 'AGENTS.md'));
    mkdirSync(join(d.dir, 'GEMINI.md')); // a directory is not a memory file
    expect(await findMemoryFiles(d.dir, 'codex')).toEqual(['AGENTS.md', 'CLAUDE.md']);
    expect(await findMemoryFiles(d.dir, 'gemini')).toEqual(['CLAUDE.md', 'AGENTS.md']);
    // Codex and Copilot CLI share AGENTS.md: listed once.
    expect(await findMemoryFiles(d.dir, 'copilot')).toEqual(['AGENTS.md', 'CLAUDE.md']);
  });
});
