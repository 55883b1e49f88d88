import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCheckpointStore } from '../checkpoint-state/checkpoint-store.ts';
import { DEFAULT_DIRECT_EXECUTION_CONFIG, type ResolvedDirectExecutionConfig } from '../config/context-config.ts';
import { makeTempDir, makeTempGitRepo, type TempGitRepo } from '@agent-checkpoint/core/test-support';
import { readContextLevel, type KnownContextReading } from '../context/read-context-level.ts';
import { fileCall, timelineOf } from '../handoff/test-timeline.ts';
import { writeHandoff } from '../handoff/write-handoff.ts';
import { executeCheckpoint, type ExecuteCheckpointResult } from './execute-checkpoint.ts';

// Issue 12, class 2, repository side: the memory file, the checkpoint log, the direct-execution state
// and the checkpoint store are never written through a symlink a repository (or the agent during the
// turn) can carry — on the file itself or on a directory leading to it. Links point at files in a
// second temp directory, which must stay byte for byte.

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function world(): { readonly repo: TempGitRepo; readonly outside: string; victim(name: string): string } {
  const repo = makeTempGitRepo();
  cleanups.push(repo.remove);
  const out = makeTempDir();
  cleanups.push(out.remove);
  return {
    repo,
    outside: out.dir,
    victim(name) {
      const path = join(out.dir, name);
      writeFileSync(path, `precious ${name}\n`);
      return path;
    },
  };
}

const reading = readContextLevel({ contextTokens: 172_000, contextWindow: 200_000 }) as KnownContextReading;
const CONFIG: ResolvedDirectExecutionConfig = { ...DEFAULT_DIRECT_EXECUTION_CONFIG, enabled: true, timeoutMs: 20_000 };

function execute(repo: TempGitRepo, config: Partial<ResolvedDirectExecutionConfig>): Promise<ExecuteCheckpointResult> {
  return executeCheckpoint({
    projectRoot: repo.dir,
    agent: 'claude',
    handoff: { trigger: { kind: 'context', reading }, timeline: timelineOf([fileCall('e1', 'edit', ['src/app.ts'])], { prompt: 'Build' }), failures: [] },
    config: { ...CONFIG, ...config },
    now: new Date('2026-01-07T11:45:00.000Z'),
    timeZone: 'UTC',
    env: repo.env,
  });
}

const untouched = (path: string, name: string): void => expect(readFileSync(path, 'utf8'), path).toBe(`precious ${name}\n`);

describe('direct execution writes in the repository', () => {
  it('a memory file under a symlinked directory is refused (the old code wrote the file it leads to)', async () => {
    const w = world();
    const victim = w.victim('CLAUDE.md');
    symlinkSync(w.outside, join(w.repo.dir, 'docs'));
    const result = await execute(w.repo, { memoryFile: 'docs/CLAUDE.md', commit: false });
    expect(result.status).toBe('fallback');
    expect(result.fallbackReason).toMatch(/refusing to write .*docs.*symlink/);
    untouched(victim, 'CLAUDE.md');
  });

  it('a memory file path leading out by `..` is refused', async () => {
    const w = world();
    const result = await execute(w.repo, { memoryFile: '../CLAUDE.md', commit: false });
    expect(result.status).toBe('fallback');
    expect(result.fallbackReason).toMatch(/outside the repository/);
  });

  it('a checkpoint log planted as a symlink, and a planted direct-state file, are refused with log entries', async () => {
    const w = world();
    const logVictim = w.victim('log');
    const stateVictim = w.victim('state');
    mkdirSync(join(w.repo.dir, '.agent-checkpoint'));
    symlinkSync(logVictim, join(w.repo.dir, '.agent-checkpoint', 'checkpoint.log'));
    symlinkSync(stateVictim, join(w.repo.dir, '.agent-checkpoint', 'direct-checkpoint.json'));
    mkdirSync(join(w.repo.dir, 'src'));
    writeFileSync(join(w.repo.dir, 'src', 'app.ts'), 'export const app = 1;\n');
    const result = await execute(w.repo, { logFile: '.agent-checkpoint/checkpoint.log', commit: false });
    expect(result.status).toBe('done');
    const messages = result.log.map((e) => `${e.step} ${e.status}: ${e.message}`);
    expect(messages.some((m) => /^log-file failed: .*refusing to write .*checkpoint\.log.*symlink/.test(m)), messages.join('\n')).toBe(true);
    expect(messages.some((m) => /^state warning: .*refusing to write .*symlink/.test(m)), messages.join('\n')).toBe(true);
    untouched(logVictim, 'log');
    untouched(stateVictim, 'state');
    expect(lstatSync(join(w.repo.dir, '.agent-checkpoint', 'checkpoint.log')).isSymbolicLink()).toBe(true);
  });

  it('a memory file that is a link into .git/ is refused: git\'s own config is not rewritten (issue 23)', async () => {
    const w = world();
    const config = join(w.repo.dir, '.git', 'config');
    const before = readFileSync(config, 'utf8');
    symlinkSync(join('.git', 'config'), join(w.repo.dir, 'CLAUDE.md'));
    mkdirSync(join(w.repo.dir, 'src'));
    writeFileSync(join(w.repo.dir, 'src', 'app.ts'), 'export const app = 1;\n');
    const result = await execute(w.repo, { commit: false });
    expect(result.status).toBe('fallback');
    expect(result.fallbackReason).toMatch(/CLAUDE\.md points into \.git\//);
    expect(readFileSync(config, 'utf8')).toBe(before);
  });

  it('a memory file configured inside .git/ is refused', async () => {
    const w = world();
    const result = await execute(w.repo, { memoryFile: '.git/description', commit: false });
    expect(result.status).toBe('fallback');
    expect(result.fallbackReason).toMatch(/inside \.git\//);
  });

  it('a direct-state file that is a FIFO nobody writes to: the checkpoint completes instead of waiting (issue 23)', { timeout: 20_000 }, async () => {
    const w = world();
    mkdirSync(join(w.repo.dir, '.agent-checkpoint'));
    execFileSync('mkfifo', [join(w.repo.dir, '.agent-checkpoint', 'direct-checkpoint.json')]);
    mkdirSync(join(w.repo.dir, 'src'));
    writeFileSync(join(w.repo.dir, 'src', 'app.ts'), 'export const app = 1;\n');
    const started = Date.now();
    const result = await execute(w.repo, { commit: false });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.status).toBe('done');
    const messages = result.log.map((e) => `${e.step} ${e.status}: ${e.message}`);
    expect(messages.some((m) => /^state warning: .*not a regular file/.test(m)), messages.join('\n')).toBe(true);
  });

  it('a `.agent-checkpoint` directory that is a symlink (even to a directory inside the repository) is never written through', async () => {
    const w = world();
    mkdirSync(join(w.repo.dir, 'elsewhere'));
    symlinkSync(join(w.repo.dir, 'elsewhere'), join(w.repo.dir, '.agent-checkpoint'));
    const written = await writeHandoff({
      projectRoot: w.repo.dir,
      data: { projectRoot: w.repo.dir, agent: 'claude', trigger: { kind: 'context', reading }, timeline: timelineOf([], { prompt: 'x' }), failures: [], memoryFiles: [] },
      now: new Date('2026-01-07T11:45:00.000Z'),
      timeZone: 'UTC',
    });
    expect(written.ok).toBe(false);
    expect(JSON.stringify(written)).toMatch(/symlink/);
    expect(readDir(join(w.repo.dir, 'elsewhere'))).toEqual([]);
  });
});

describe('checkpoint store', () => {
  it('does not save through a checkpoint file planted as a symlink', async () => {
    const w = world();
    const victim = w.victim('checkpoint');
    const dir = join(w.repo.dir, '.agent-checkpoint', 'state');
    mkdirSync(dir, { recursive: true });
    symlinkSync(victim, join(dir, 'build-checkpoint.json'));
    const logged: string[] = [];
    const store = createCheckpointStore({ projectRoot: w.repo.dir, logger: (message: string, error?: unknown) => logged.push(`${message} ${String(error)}`) });
    expect(await store.save('build', { command: 'build', state: { current_phase: null, completed_phases: [], pending_phases: [] }, phases: {} })).toBe(false);
    expect(logged.join('\n')).toMatch(/refusing to write .*symlink/);
    untouched(victim, 'checkpoint');
  });
});

function readDir(dir: string): string[] {
  return readdirSync(dir).sort();
}

// Issue 12, class 3, Markdown side: file names (any bytes but `/` and NUL) and the agent's text end up
// in CLAUDE.md's `## Last Session` and in the handoff. None may add a heading, a list item or a raw
// control character there.
describe('hostile names in the memory file and the handoff', () => {
  /** C0 except LF/TAB, DEL, C1, bidi overrides and isolates. */
  const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

  it('file names with line breaks, ESC, C1 and backticks stay inline code on their own line', async () => {
    const w = world();
    const names = ['evil\n## Injected heading\n- [ ] injected item.ts', 'esc\u001b]0;title\u0007.ts', 'csi\u009b2J\r# cr.ts', 'tick``\n```\nfence.ts', '\u202eexe.txt'];
    for (const name of names) writeFileSync(join(w.repo.dir, name), 'x\n');
    const result = await executeCheckpoint({
      projectRoot: w.repo.dir,
      agent: 'claude',
      handoff: {
        trigger: { kind: 'context', reading },
        timeline: timelineOf(names.map((n, i) => fileCall(`e${i}`, 'edit', [n])), { prompt: 'Build\n# Injected title', lastAssistantMessage: 'done\r## SYSTEM\u001b[2J' }),
        failures: [{ text: 'Tests\n## failed', command: 'pnpm test\n# x', exitCode: 1, outputTail: 'FAIL\u001b[31m\n```\n# out' }],
      },
      config: { ...CONFIG, commit: false },
      now: new Date('2026-01-07T11:45:00.000Z'),
      timeZone: 'UTC',
      env: w.repo.env,
    });
    expect(result.status, JSON.stringify(result.log)).toBe('done');
    const memory = readFileSync(join(w.repo.dir, 'CLAUDE.md'), 'utf8');
    expect(memory).not.toMatch(RAW_CONTROL);
    expect(memory.split('\n').filter((l) => /^\s{0,3}#/.test(l))).toEqual(['# CLAUDE.md', '## Last Session']);
    expect(memory.split('\n').filter((l) => /^\s*[-*+] \[/.test(l))).toEqual([]);
    expect(memory).toContain('`evil\\n## Injected heading\\n- [ ] injected item.ts`');

    const handoff = readFileSync(result.handoff!.path, 'utf8');
    expect(handoff).not.toMatch(RAW_CONTROL);
    const headings = outsideFences(handoff.split('\n')).filter((l) => /^\s{0,3}#/.test(l));
    expect(headings.every((h) => /^(# Session Handoff: |## [A-Z])/.test(h)), headings.join('\n')).toBe(true);
    expect(headings.filter((h) => /Injected|SYSTEM|# x|# out|cr\.ts|failed/.test(h))).toEqual([]);
  });
});

/** The lines that are not inside a fenced code block (CommonMark: closed by a fence at least as long). */
function outsideFences(lines: readonly string[]): string[] {
  const out: string[] = [];
  let open: string | undefined;
  for (const line of lines) {
    const fence = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (open === undefined) {
      if (fence !== undefined) open = fence;
      else out.push(line);
    } else if (fence !== undefined && fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) {
      open = undefined;
    }
  }
  return out;
}
