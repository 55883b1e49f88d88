import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeConfigDir, claudeProjectSlug, locateClaudeTranscript } from './locate-claude-transcript.ts';
import { makeTempDir } from './testing/fixtures.ts';

const SESSION = '246ebb37-79b2-4651-a3d8-dbe841d77578';
let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir('ac-claude-locate-');
});
afterEach(() => temp.cleanup());

function place(root: string, slug: string, session = SESSION): string {
  const dir = join(root, 'projects', slug);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${session}.jsonl`);
  writeFileSync(path, '{}\n');
  return path;
}

describe('claudeProjectSlug', () => {
  it.each([
    ['/home/user/repo', '-home-user-repo'],
    ['/home/user/my.project_v2', '-home-user-my-project-v2'],
    ['C:\\Users\\me\\repo', 'C--Users-me-repo'],
    ['/tmp/ünïcode dir', '-tmp--n-code-dir'],
  ])('%s → %s', (cwd, slug) => {
    expect(claudeProjectSlug(cwd)).toBe(slug);
  });
});

describe('locateClaudeTranscript', () => {
  it('finds <home>/.claude/projects/<slug>/<session>.jsonl from the cwd', async () => {
    const home = join(temp.dir, 'home');
    const path = place(join(home, '.claude'), '-home-user-repo');
    await expect(locateClaudeTranscript({ sessionId: SESSION, cwd: '/home/user/repo', homeDir: home, env: {} })).resolves.toBe(path);
  });

  it('honours CLAUDE_CONFIG_DIR', async () => {
    const config = join(temp.dir, 'custom-config');
    const path = place(config, '-home-user-repo');
    place(join(temp.dir, 'home', '.claude'), '-home-user-repo'); // must not be chosen
    const env = { CLAUDE_CONFIG_DIR: config };
    expect(claudeConfigDir({ env })).toBe(config);
    await expect(locateClaudeTranscript({ sessionId: SESSION, cwd: '/home/user/repo', homeDir: join(temp.dir, 'home'), env })).resolves.toBe(path);
  });

  it('falls back to a search of projects/*/ when the cwd is unknown or its slug differs', async () => {
    const home = join(temp.dir, 'home');
    const path = place(join(home, '.claude'), '-somewhere-else-shortened-slug');
    await expect(locateClaudeTranscript({ sessionId: SESSION, homeDir: home, env: {} })).resolves.toBe(path);
    await expect(locateClaudeTranscript({ sessionId: SESSION, cwd: '/home/user/repo', homeDir: home, env: {} })).resolves.toBe(path);
  });

  it('prefers the most recently modified match', async () => {
    const home = join(temp.dir, 'home');
    const older = place(join(home, '.claude'), '-a');
    const newer = place(join(home, '.claude'), '-b');
    utimesSync(older, new Date('2026-01-01'), new Date('2026-01-01'));
    utimesSync(newer, new Date('2026-06-01'), new Date('2026-06-01'));
    await expect(locateClaudeTranscript({ sessionId: SESSION, homeDir: home, env: {} })).resolves.toBe(newer);
  });

  it('does not descend into subagent folders', async () => {
    const home = join(temp.dir, 'home');
    const nested = join(home, '.claude', 'projects', '-r', SESSION, 'subagents');
    mkdirSync(nested, { recursive: true });
    writeFileSync(join(nested, `${SESSION}.jsonl`), '{}\n');
    await expect(locateClaudeTranscript({ sessionId: SESSION, homeDir: home, env: {} })).resolves.toBeUndefined();
  });

  it('resolves undefined when nothing is there, or the home has no .claude', async () => {
    await expect(locateClaudeTranscript({ sessionId: SESSION, cwd: '/x', homeDir: join(temp.dir, 'empty'), env: {} })).resolves.toBeUndefined();
  });

  it.each([undefined, '', '../../etc/passwd', '..', 'a/b', '*', '{a,b}', `${SESSION}.jsonl`, '-leading-dash', 'x'.repeat(200)])(
    'rejects the session id %j without touching the disk',
    async (sessionId) => {
      const home = join(temp.dir, 'home');
      place(join(home, '.claude'), '-r');
      await expect(locateClaudeTranscript({ ...(sessionId === undefined ? {} : { sessionId }), homeDir: home, env: {} })).resolves.toBeUndefined();
    },
  );

  it('a directory named like a transcript is not a transcript', async () => {
    const home = join(temp.dir, 'home');
    mkdirSync(join(home, '.claude', 'projects', '-home-user-repo', `${SESSION}.jsonl`), { recursive: true });
    await expect(locateClaudeTranscript({ sessionId: SESSION, cwd: '/home/user/repo', homeDir: home, env: {} })).resolves.toBeUndefined();
  });

  it('does not follow a symlinked project directory in the search', async () => {
    const home = join(temp.dir, 'home');
    const outside = join(temp.dir, 'outside');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, `${SESSION}.jsonl`), '{}\n');
    mkdirSync(join(home, '.claude', 'projects'), { recursive: true });
    symlinkSync(outside, join(home, '.claude', 'projects', '-linked'));
    await expect(locateClaudeTranscript({ sessionId: SESSION, homeDir: home, env: {} })).resolves.toBeUndefined();
  });
});
