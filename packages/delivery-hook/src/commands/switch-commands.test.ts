import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeProjectSlug } from '@agent-checkpoint/transcript-claude';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildStopPayload } from '../test-support/build-stop-payload.ts';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';

// off / on --project and --current through the built bin; the hook honours the project switch.

let sandbox: HookSandbox;
let repo: string;
beforeEach(() => {
  sandbox = createHookSandbox();
  repo = join(sandbox.root, 'repo');
  mkdirSync(join(repo, 'sub'), { recursive: true });
  execFileSync('git', ['init', '-q', repo], { env: sandbox.env });
});
afterEach(() => {
  sandbox.remove();
});

const run = (args: string[], cwd = repo) => runHookBundle({ args, env: sandbox.env, cwd });

/** A Claude Stop of session `sessionId` in `cwd`, run with --debug; returns the hook's stderr. */
async function claudeStop(sessionId: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const payload = buildStopPayload({ agent: 'claude', sessionId, cwd, transcriptPath: join(sandbox.root, 'none.jsonl'), hint: { turnId: 'p1' }, stopHookActive: false });
  return runHookBundle({ args: ['claude', '--debug'], stdin: JSON.stringify(payload), env: sandbox.env, cwd });
}

describe('off --project', () => {
  it('silences every session in the repository, from any directory of it, and writes nothing into it', async () => {
    const off = await run(['off', '--project'], join(repo, 'sub'));
    expect(off).toMatchObject({ code: 0, stdout: `Checkpoints off for project ${repo}.\n` });
    expect(readdirSync(repo).sort()).toEqual(['.git', 'sub']);
    const switches = readdirSync(join(sandbox.stateDir, 'switches'));
    expect(switches).toHaveLength(1);
    expect(switches[0]).toMatch(/^project-[0-9a-f]{32}\.off$/);

    const inRepo = await claudeStop('s-1', join(repo, 'sub'));
    expect(inRepo.code).toBe(0);
    expect(inRepo.stdout).toBe('');
    expect(inRepo.stderr).toMatch(/switched-off: checkpoints are off \(project:/);
    // Another project is not affected.
    const other = join(sandbox.root, 'other');
    mkdirSync(other);
    expect((await claudeStop('s-2', other)).stderr).not.toMatch(/switched-off/);

    const status = JSON.parse((await run(['status', '--json'])).stdout) as { project: { root: string; off: boolean } };
    expect(status.project).toMatchObject({ root: repo, off: true });
    expect((await run(['status'])).stdout).toContain(`project ${repo}: off`);

    const on = await run(['on', '--project', '--json']);
    expect(on.code).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({ off: false, scope: { kind: 'project', projectRoot: repo } });
    expect((await claudeStop('s-1', repo)).stderr).not.toMatch(/switched-off/);
  });

  it('is keyed on the real path: a symlinked checkout of the same repository is off too, either way round', async () => {
    const link = join(sandbox.root, 'link-to-repo');
    symlinkSync(repo, link);
    // Off through the link (as a shell in the link would spell it), the hook runs in the real path.
    expect((await run(['off', '--project', '--cwd', link], sandbox.root)).code).toBe(0);
    expect((await claudeStop('s-1', join(repo, 'sub'))).stderr).toMatch(/switched-off: checkpoints are off \(project:/);
    expect((await run(['on', '--project', '--cwd', repo], sandbox.root)).code).toBe(0);
    expect((await claudeStop('s-1', repo)).stderr).not.toMatch(/switched-off/);
    // Off through the real path, the agent reports the link as its cwd.
    expect((await run(['off', '--project', '--cwd', repo], sandbox.root)).code).toBe(0);
    expect((await claudeStop('s-2', join(link, 'sub'))).stderr).toMatch(/switched-off: checkpoints are off \(project:/);
    expect((await run(['status', '--json', '--cwd', link], sandbox.root)).stdout).toMatch(/"off": true/);
  });

  it('still honours a switch written under the path as spelled (before keys were real paths), and on --project removes it', async () => {
    const link = join(sandbox.root, 'link-to-repo');
    symlinkSync(repo, link);
    const oldKey = `project-${createHash('sha256').update(link, 'utf8').digest('hex').slice(0, 32)}.off`;
    mkdirSync(join(sandbox.stateDir, 'switches'), { recursive: true, mode: 0o700 });
    writeFileSync(join(sandbox.stateDir, 'switches', oldKey), `${JSON.stringify({ scope: 'project', projectRoot: link })}\n`, { mode: 0o600 });
    expect((await claudeStop('s-1', link)).stderr).toMatch(/switched-off: checkpoints are off \(project:/);
    expect((await run(['on', '--project', '--cwd', link], sandbox.root)).code).toBe(0);
    expect(existsSync(join(sandbox.stateDir, 'switches', oldKey))).toBe(false);
    expect((await claudeStop('s-1', link)).stderr).not.toMatch(/switched-off/);
  });

  it('--cwd names the project', async () => {
    expect((await run(['off', '--project', '--cwd', repo], sandbox.root)).stdout).toBe(`Checkpoints off for project ${repo}.\n`);
    const missing = await run(['off', '--project', '--cwd', join(sandbox.root, 'nope')], sandbox.root);
    expect(missing.code).toBe(1);
  });
});

describe('off --current', () => {
  /** A Claude transcript of `sessionId` for `cwd`, written `ageSeconds` ago. */
  function claudeTranscript(sessionId: string, cwd: string, ageSeconds: number): string {
    const dir = join(sandbox.home, '.claude', 'projects', claudeProjectSlug(cwd));
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${sessionId}.jsonl`);
    writeFileSync(path, `${JSON.stringify({ type: 'user', sessionId, cwd, message: { role: 'user', content: 'hi' } })}\n`);
    const at = new Date(Date.now() - ageSeconds * 1000);
    utimesSync(path, at, at);
    return path;
  }

  it('switches off the newest session that ran in this directory', async () => {
    claudeTranscript('older-session', repo, 600);
    claudeTranscript('newest-session', repo, 5);
    const off = await run(['off', '--current', '--json']);
    expect(off.code).toBe(0);
    expect(JSON.parse(off.stdout)).toMatchObject({ off: true, scope: { kind: 'session', sessionId: 'newest-session' }, current: { agent: 'claude', sessionId: 'newest-session' } });
    expect(existsSync(join(sandbox.stateDir, 'switches', 'session-newest-session.off'))).toBe(true);
    expect((await claudeStop('newest-session', repo)).stderr).toMatch(/switched-off: checkpoints are off \(session:/);
    expect((await claudeStop('older-session', repo)).stderr).not.toMatch(/switched-off/);

    expect((await run(['on', '--current', '--agent', 'claude'])).stdout).toMatch(/^Checkpoints on for session newest-session \(the newest claude session here/);
    expect(existsSync(join(sandbox.stateDir, 'switches', 'session-newest-session.off'))).toBe(false);
  });

  it('status shows the switch off --current set, right after it, and on again after on --current', async () => {
    claudeTranscript('newest-session', repo, 5);
    expect((await run(['off', '--current'])).code).toBe(0);
    const status = await run(['status'], join(repo, 'sub'));
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('newest session here (claude) newest-session: off (agent-checkpoint-hook on --session newest-session to turn it on)');
    const json = JSON.parse((await run(['status', '--json'])).stdout) as { current: { id: string; off: boolean } };
    expect(json.current).toMatchObject({ id: 'newest-session', off: true });
    expect((await run(['on', '--current'])).code).toBe(0);
    expect((await run(['status'])).stdout).toContain('newest session here (claude) newest-session: on\n');
  });

  it('says so, exit 1, when no session ran here', async () => {
    const result = await run(['off', '--current']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no session of any agent found');
    expect((await run(['off', '--current', '--agent', 'gemini'])).stderr).toContain('no session of gemini found');
  });
});

describe('off / on usage', () => {
  it.each([[['off', '--project', '--all']], [['on', '--current', '--session', 'x']], [['off', '--all', '--agent', 'claude']], [['off', '--current', '--agent', 'cursor']]])('%j → exit 2', async (args) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage:');
  });
});
