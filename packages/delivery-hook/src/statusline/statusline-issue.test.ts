import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { updateSessionState } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { readStatuslineInput } from './read-statusline-input.ts';
import { statuslineFor } from './run-statusline.ts';

// Issue 14 point 8: the status line shows the branch's issue id and, after a Stop-route handoff (the
// handoff written, then the block announcing it claimed a moment later), the handoff's time.

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

function repo(branch: string): { s: HookSandbox; dir: string } {
  sandbox = createHookSandbox('ac-statusline-issue-');
  const dir = join(sandbox.root, 'repo');
  mkdirSync(join(dir, 'src'), { recursive: true });
  execFileSync('git', ['init', '-q', '-b', branch], { cwd: dir, env: sandbox.env });
  return { s: sandbox, dir };
}
const json = (s: HookSandbox, cwd: string) =>
  JSON.stringify({ session_id: 'sess-1', cwd, model: { id: 'claude-opus-5-5' }, context_window: { total_input_tokens: 100_000, context_window_size: 200_000, used_percentage: 50 } });

describe('status line: ISSUE and the Stop-route handoff time', () => {
  it('[ISSUE: ANV-123] from the branch, from a subdirectory and from a linked worktree; none on main or a detached HEAD', async () => {
    const { s, dir } = repo('feature/ANV-123-oauth');
    expect(await statuslineFor(readStatuslineInput(json(s, join(dir, 'src'))), s.env, s.root)).toBe('[CTX: █████░░░░░ 50%] [CKPT: ready] [ISSUE: ANV-123]');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, env: s.env, encoding: 'utf8' });
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    git('add', 'a.txt');
    git('commit', '-q', '-m', 'a');
    const linked = join(s.root, 'linked');
    git('worktree', 'add', '-q', '-b', 'fix/OPS-7', linked);
    expect(await statuslineFor(readStatuslineInput(json(s, linked)), s.env, s.root)).toBe('[CTX: █████░░░░░ 50%] [CKPT: ready] [ISSUE: OPS-7]');
    git('checkout', '-q', '-b', 'main');
    expect(await statuslineFor(readStatuslineInput(json(s, dir)), s.env, s.root)).toBe('[CTX: █████░░░░░ 50%] [CKPT: ready]');
    git('checkout', '-q', '--detach');
    expect(await statuslineFor(readStatuslineInput(json(s, dir)), s.env, s.root)).toBe('[CTX: █████░░░░░ 50%] [CKPT: ready]');
  });

  it('after a Stop-route handoff (claimed seconds later) it shows the handoff time; a checkpoint minutes later shows "last"', async () => {
    const { s, dir } = repo('main');
    const location = { stateDir: s.stateDir, agent: 'claude' as const, sessionId: 'sess-1' };
    const handoffAt = new Date(2026, 0, 7, 14, 5, 0);
    const set = (lastCheckpointAt: Date) =>
      updateSessionState(location, (st) => ({ state: { ...st, lastCheckpointAt: lastCheckpointAt.toISOString(), context: { handoffAt: handoffAt.toISOString(), handoffPath: 'h.md' } }, value: undefined }));
    await set(new Date(handoffAt.getTime() + 2_000));
    expect(await statuslineFor(readStatuslineInput(json(s, dir)), s.env, s.root)).toBe('[CTX: █████░░░░░ 50%] [CKPT: handoff 14:05]');
    await set(new Date(2026, 0, 7, 14, 20, 0));
    expect(await statuslineFor(readStatuslineInput(json(s, dir)), s.env, s.root)).toBe('[CTX: █████░░░░░ 50%] [CKPT: last 14:20]');
  });

  it('[PHASE: command:phase] of the newest unfinished multi-phase checkpoint; completed or odd files are skipped', async () => {
    const { s, dir } = repo('feature/ANV-9');
    const stateDir = join(dir, '.agent-checkpoint', 'state');
    mkdirSync(stateDir, { recursive: true });
    const checkpoint = (command: string, phase: string, updated: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ version: 1, command, started_at: updated, updated_at: updated, state: { current_phase: phase, completed_phases: [], pending_phases: [] }, phases: {}, ...extra });
    writeFileSync(join(stateDir, 'plan-checkpoint.json'), checkpoint('plan', 'research', '2026-01-07T10:00:00Z'));
    writeFileSync(join(stateDir, 'implement-checkpoint.json'), checkpoint('implement', 'tests', '2026-01-07T11:00:00Z'));
    writeFileSync(join(stateDir, 'ship-checkpoint.json'), checkpoint('ship', 'deploy', '2026-01-07T12:00:00Z', { completed_at: '2026-01-07T12:30:00Z' }));
    writeFileSync(join(stateDir, 'evil-checkpoint.json'), checkpoint('x\u001b]0;t\u0007', 'p', '2026-01-06T00:00:00Z'));
    writeFileSync(join(stateDir, 'broken-checkpoint.json'), '{');
    expect(await statuslineFor(readStatuslineInput(json(s, dir)), s.env, s.root)).toBe('[CTX: █████░░░░░ 50%] [CKPT: ready] [ISSUE: ANV-9] [PHASE: implement:tests]');
  });
});
