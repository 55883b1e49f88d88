import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { terminalStyle } from '@agent-checkpoint/setup-kit';
import { CODEX_FIXTURE } from '../test-support/delivery-fixtures.ts';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';
import { explainTurn, type ExplainReport } from './explain-turn.ts';
import { renderExplain } from './render-explain.ts';

// `explain` shows how each commit of the turn's start second was settled (issue 11 class 1): a real
// repository, a real commit dated to the second of the recorded `codex exec` turn start
// (02:13:03.484Z), its loose object's file time set around the prompt.

const TURN_START_MS = Date.parse('2026-11-22T02:13:03.484Z');

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

interface Repo {
  readonly repo: string;
  readonly env: Record<string, string>;
  readonly transcriptPath: string;
  readonly oid: string;
}

/** A repository whose last commit has the turn's start second; its object written at `objectMs`, the reflog at `reflogMs`. */
function repoWithStartSecondCommit(objectMs: number, reflogMs = objectMs + 1, fileName = 'daemon/server.mjs'): Repo {
  sandbox = createHookSandbox('ac-explain-second-');
  const repo = join(sandbox.root, 'repo');
  mkdirSync(repo);
  const env = { ...sandbox.env, NO_COLOR: '1', GIT_AUTHOR_NAME: 'Loop', GIT_AUTHOR_EMAIL: 'loop@example.invalid', GIT_COMMITTER_NAME: 'Loop', GIT_COMMITTER_EMAIL: 'loop@example.invalid' };
  const git = (args: readonly string[], extra: Record<string, string> = {}): string =>
    execFileSync('git', args, { cwd: repo, env: { ...env, ...extra }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  git(['init', '-q', '-b', 'main']);
  writeFileSync(join(repo, 'README.md'), 'readme\n');
  git(['add', '-A']);
  const old = `@${Math.floor(TURN_START_MS / 1000) - 3600} +0000`;
  git(['commit', '-q', '--no-verify', '-m', 'project'], { GIT_AUTHOR_DATE: old, GIT_COMMITTER_DATE: old });
  mkdirSync(join(repo, 'daemon'), { recursive: true });
  writeFileSync(join(repo, fileName), 'export const port = 8080;\n');
  git(['add', '-A']);
  const second = `@${Math.floor(TURN_START_MS / 1000)} +0000`;
  git(['commit', '-q', '--no-verify', '-m', 'loop: previous run'], { GIT_AUTHOR_DATE: second, GIT_COMMITTER_DATE: second });
  const oid = git(['rev-parse', 'HEAD']).trim();
  utimesSync(join(repo, '.git', 'objects', oid.slice(0, 2), oid.slice(2)), new Date(objectMs), new Date(objectMs));
  utimesSync(join(repo, '.git', 'logs', 'HEAD'), new Date(reflogMs), new Date(reflogMs));
  const transcriptPath = join(sandbox.root, 'rollout.jsonl');
  writeFileSync(transcriptPath, readFileSync(CODEX_FIXTURE.transcriptFile, 'utf8').replaceAll(CODEX_FIXTURE.recordedCwd ?? '/WORK/repo', repo));
  return { repo, env, transcriptPath, oid };
}

const explain = (r: Repo): Promise<ExplainReport> =>
  explainTurn({ agent: 'codex', cwd: r.repo, env: r.env, transcriptPath: r.transcriptPath, turnId: CODEX_FIXTURE.hint.turnId as string });

describe('explain shows the verdicts on commits of the turn\'s start second', { timeout: 60_000 }, () => {
  it('a commit written 200 ms before the prompt: before-turn, by its loose object, in the report and the text', async () => {
    const r = repoWithStartSecondCommit(TURN_START_MS - 200);
    const report = await explain(r);
    expect(report.startSecondCommits).toEqual([{ oid: r.oid, verdict: 'before-turn', evidence: 'loose-object' }]);
    expect(report.files.map((f) => f.path)).not.toContain('daemon/server.mjs');
    const text = renderExplain(report, terminalStyle(false));
    expect(text).toContain('Commits made in the second the turn started');
    expect(text).toContain(`${r.oid.slice(0, 12)}  before the prompt: not the turn's (the time of its loose object file)`);
  });

  it('the same commit written 200 ms after the prompt: during-turn, and its file counts', async () => {
    const r = repoWithStartSecondCommit(TURN_START_MS + 200);
    const report = await explain(r);
    expect(report.startSecondCommits).toEqual([{ oid: r.oid, verdict: 'during-turn', evidence: 'loose-object' }]);
    expect(report.files).toContainEqual({ path: 'daemon/server.mjs', reason: 'committed-during-turn', calls: [] });
    expect(renderExplain(report, terminalStyle(false))).toContain(`${r.oid.slice(0, 12)}  during the turn: the turn's (the time of its loose object file)`);
  });

  it('whole-second file times and a reflog written after the prompt: unknown, nothing on disk tells; an uncertain file is marked', async () => {
    const r = repoWithStartSecondCommit(Math.floor(TURN_START_MS / 1000) * 1000, TURN_START_MS + 500);
    const report = await explain(r);
    expect(report.startSecondCommits).toEqual([{ oid: r.oid, verdict: 'unknown', evidence: 'none' }]);
    const text = renderExplain(report, terminalStyle(false));
    expect(text).toContain(`${r.oid.slice(0, 12)}  unknown: its files count only if the turn could have made a commit (nothing on disk tells`);
    // The recorded turn ran shell commands (it could have committed): the file is kept, marked.
    expect(report.files).toContainEqual({ path: 'daemon/server.mjs', reason: 'committed-during-turn', calls: [], uncertainCommit: true });
    expect(text).toMatch(/daemon\/server\.mjs +committed during the turn \(from a commit of the start second that could not be placed\)/);
  });

  it('--json through the bundled bin carries them; file names with control characters stay escaped', async () => {
    const r = repoWithStartSecondCommit(TURN_START_MS + 200, TURN_START_MS + 201, 'daemon/evil\u001b[31m\u009b.mjs');
    const result = await runHookBundle({ args: ['explain', '--agent', 'codex', '--cwd', r.repo, '--transcript', r.transcriptPath, '--turn-id', CODEX_FIXTURE.hint.turnId as string, '--json'], env: r.env, cwd: r.repo });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(/[\u001b\u009b]/);
    const report = JSON.parse(result.stdout) as ExplainReport;
    expect(report.startSecondCommits).toEqual([{ oid: r.oid, verdict: 'during-turn', evidence: 'loose-object' }]);
    const text = await runHookBundle({ args: ['explain', '--agent', 'codex', '--cwd', r.repo, '--transcript', r.transcriptPath, '--turn-id', CODEX_FIXTURE.hint.turnId as string], env: r.env, cwd: r.repo });
    expect(text.stdout).not.toMatch(/[\u001b\u009b]/);
    expect(text.stdout).toContain(`${r.oid.slice(0, 12)}  during the turn`);
  });
});
