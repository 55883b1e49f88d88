import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStopPayload } from './test-support/build-stop-payload.ts';
import { CODEX_FIXTURE } from './test-support/delivery-fixtures.ts';
import { createHookSandbox, type HookSandbox } from './test-support/hook-sandbox.ts';
import { parseHookStdout, runHookBundle } from './test-support/run-hook-bundle.ts';

// Issue 11, class 1, through the real bundled hook: `while …; do codex exec "…"; git commit -am …; done`.
// The recorded `codex exec` turn (task_started 02:13:03.484Z) follows a commit of the previous run
// made in that same second. Git records both at 1 s; the commit object's file time tells them apart.

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

const TURN_START_MS = Date.parse('2026-11-22T02:13:03.484Z');

interface LoopRepo {
  readonly repo: string;
  readonly env: Record<string, string>;
  readonly transcriptPath: string;
  git(args: readonly string[], env?: Record<string, string>): string;
}

/** A repository whose project file gives three categories actions, and the recorded turn's rollout pointing at it. */
function loopRepo(): LoopRepo {
  sandbox = createHookSandbox('ac-loop-');
  const repo = join(sandbox.root, 'repo');
  mkdirSync(repo);
  const env = { ...sandbox.env, GIT_AUTHOR_NAME: 'Loop', GIT_AUTHOR_EMAIL: 'loop@example.invalid', GIT_COMMITTER_NAME: 'Loop', GIT_COMMITTER_EMAIL: 'loop@example.invalid' };
  const git = (args: readonly string[], extra: Record<string, string> = {}): string =>
    execFileSync('git', args, { cwd: repo, env: { ...env, ...extra }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  git(['init', '-q', '-b', 'main']);
  writeFileSync(
    join(repo, '.agent-checkpoint.json'),
    JSON.stringify({
      categories: [
        { id: 'daemon', label: 'daemon code', include: ['daemon/**'], action: 'Restart the daemon: `make restart`', evidence: ['make restart'] },
        { id: 'deps', label: 'dependencies', include: ['package.json'], action: 'Install: `npm install`', evidence: ['npm install'] },
      ],
      loopGuard: { minTurnSeconds: 0 },
    }),
  );
  git(['add', '-A']);
  const old = `@${Math.floor(TURN_START_MS / 1000) - 3600} +0000`;
  git(['commit', '-q', '--no-verify', '-m', 'project'], { GIT_AUTHOR_DATE: old, GIT_COMMITTER_DATE: old });
  // The recorded rollout, as Codex wrote it, with its workspace path pointing here.
  const transcriptPath = join(sandbox.root, 'rollout.jsonl');
  const recordedCwd = CODEX_FIXTURE.recordedCwd;
  if (recordedCwd === undefined) throw new Error('the Codex fixture names the cwd it was recorded in');
  writeFileSync(transcriptPath, readFileSync(CODEX_FIXTURE.transcriptFile, 'utf8').replaceAll(recordedCwd, repo));
  return { repo, env, transcriptPath, git };
}

/** The loop runner's `git commit` after the previous run, in the turn's start second; its object written at `objectMs`. */
function previousRunCommit(l: LoopRepo, objectMs: number): void {
  writeFileSync(join(l.repo, 'package.json'), '{"name":"svc","dependencies":{"left-pad":"1.3.0"}}\n');
  mkdirSync(join(l.repo, 'daemon'), { recursive: true });
  writeFileSync(join(l.repo, 'daemon/server.mjs'), 'export const port = 8080;\n');
  l.git(['add', '-A']);
  const second = `@${Math.floor(TURN_START_MS / 1000)} +0000`;
  l.git(['commit', '-q', '--no-verify', '-m', 'loop: previous run'], { GIT_AUTHOR_DATE: second, GIT_COMMITTER_DATE: second });
  const oid = l.git(['rev-parse', 'HEAD']).trim();
  const object = join(l.repo, '.git', 'objects', oid.slice(0, 2), oid.slice(2));
  utimesSync(object, new Date(objectMs), new Date(objectMs));
  // The reflog entry was appended right after the object was written.
  utimesSync(join(l.repo, '.git', 'logs', 'HEAD'), new Date(objectMs + 1), new Date(objectMs + 1));
}

async function stop(l: LoopRepo): Promise<{ reason: string | null; stderr: string }> {
  const payload = buildStopPayload({
    agent: 'codex',
    sessionId: CODEX_FIXTURE.sessionId,
    transcriptPath: l.transcriptPath,
    cwd: l.repo,
    hint: CODEX_FIXTURE.hint,
    stopHookActive: false,
  });
  const result = await runHookBundle({ args: ['codex', '--debug'], stdin: JSON.stringify(payload), env: l.env, cwd: l.repo });
  expect(result.code).toBe(0);
  return { reason: parseHookStdout('codex', result.stdout), stderr: result.stderr };
}

describe('a loop runner commits after each run; the next codex exec starts in the same second', () => {
  it('its commit, written 200 ms before the prompt, is not the turn\'s: the hook passes', async () => {
    const l = loopRepo();
    previousRunCommit(l, TURN_START_MS - 200);
    const { reason, stderr } = await stop(l);
    expect(reason, stderr).toBeNull();
  });

  it('the same commit written 200 ms after the prompt (the agent\'s) is the turn\'s: blocked for its categories', async () => {
    const l = loopRepo();
    previousRunCommit(l, TURN_START_MS + 200);
    const { reason, stderr } = await stop(l);
    expect(reason, stderr).toContain('Restart the daemon');
    expect(reason).toContain('npm install');
  });
});
