import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';

// `agent-checkpoint-hook state …` as a real process on a real repository: JSON in and out, exit codes.

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

function repo(): { env: Record<string, string>; dir: string; git: (...args: string[]) => string } {
  sandbox = createHookSandbox('ac-state-cli-');
  const dir = join(sandbox.root, 'repo');
  mkdirSync(join(dir, 'sub'), { recursive: true });
  const env = { ...sandbox.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.invalid' };
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('commit', '-q', '--allow-empty', '-m', 'one');
  return { env, dir, git };
}

const state = (r: { env: Record<string, string>; dir: string }, args: string[], stdin?: string) =>
  runHookBundle({ args: ['state', ...args], env: r.env, cwd: join(r.dir, 'sub'), ...(stdin === undefined ? {} : { stdin }) });

describe('state', () => {
  it('a command\'s phases end to end: update-phase, resume, save, load, complete', async () => {
    const r = repo();
    const none = await state(r, ['load', '--command', 'implement']);
    expect(none).toMatchObject({ code: 3, stdout: 'null\n', stderr: '' });
    expect((await state(r, ['resume', '--command', 'implement'])).code).toBe(3);

    const research = await state(r, ['update-phase', '--command', 'implement', '--phase', 'research'], JSON.stringify({ status: 'complete', context_summary: 'Read the codebase.' }));
    expect(research.code, research.stderr).toBe(0);
    const design = await state(r, ['update-phase', '--command', 'implement', '--phase', 'design', '--json', JSON.stringify({ status: 'in_progress' })]);
    const saved = JSON.parse(design.stdout) as { state: Record<string, unknown>; head_commit: string; version: number };
    expect(saved.state).toMatchObject({ current_phase: 'design', completed_phases: ['research'] });
    expect(saved.version).toBe(1);
    expect(saved.head_commit).toBe(r.git('rev-parse', 'HEAD').trim());

    const resume = await state(r, ['resume', '--command', 'implement']);
    expect(resume).toMatchObject({ code: 0 });
    expect(JSON.parse(resume.stdout)).toEqual({ phase: 'design', summary: 'Read the codebase.' });

    // The file lives at the repository root, found from a subdirectory, and git ignores it.
    const file = join(r.dir, '.agent-checkpoint', 'state', 'implement-checkpoint.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ command: 'implement' });
    expect(r.git('status', '--porcelain')).toBe('');

    const complete = await state(r, ['complete', '--command', 'implement']);
    expect(complete.code).toBe(0);
    expect(JSON.parse(complete.stdout)).toMatchObject({ state: { current_phase: null, pending_phases: [] }, completed_at: expect.any(String) });
    expect((await state(r, ['resume', '--command', 'implement'])).code).toBe(3);
  });

  it('save takes a whole checkpoint (features kept apart) and validates it', async () => {
    const r = repo();
    const body = { state: { current_phase: 'ship', completed_phases: [], pending_phases: ['ship'] }, phases: { ship: { status: 'in_progress' } }, gate: { ship_allowed: false, blockers: ['tests'] } };
    const saved = await state(r, ['save', '--command', 'ship', '--feature', 'oauth'], JSON.stringify(body));
    expect(saved.code, saved.stderr).toBe(0);
    expect(JSON.parse(saved.stdout)).toMatchObject({ command: 'ship', feature: 'oauth', gate: { blockers: ['tests'] } });
    expect((await state(r, ['load', '--command', 'ship'])).code).toBe(3);
    expect((await state(r, ['load', '--command', 'ship', '--feature', 'oauth'])).code).toBe(0);

    const invalid = await state(r, ['save', '--command', 'ship'], JSON.stringify({ state: { current_phase: 3 } }));
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/the checkpoint JSON is invalid: state/);
    expect((await state(r, ['save', '--command', 'ship'], 'not json')).code).toBe(1);
    expect((await state(r, ['save', '--command', 'ship'], '[]')).code).toBe(1);
  });

  it('the seed\'s diagnostics: a summary over 500 tokens, a corrupt file, a stale HEAD (a warning)', async () => {
    const r = repo();
    const long = await state(r, ['update-phase', '--command', 'design', '--phase', 'p', '--json', JSON.stringify({ context_summary: 'word '.repeat(501) })]);
    expect(long.code).toBe(1);
    expect(long.stderr).toContain('Context summary exceeds 500 token limit (actual: 501 tokens)');

    await state(r, ['update-phase', '--command', 'design', '--phase', 'p', '--json', '{"status":"in_progress"}']);
    r.git('commit', '-q', '--allow-empty', '-m', 'two');
    const stale = await state(r, ['load', '--command', 'design']);
    expect(stale.code).toBe(0);
    expect(stale.stderr).toMatch(/Checkpoint is stale \(saved at [0-9a-f]{7}, current HEAD is [0-9a-f]{7}\)/);

    writeFileSync(join(r.dir, '.agent-checkpoint', 'state', 'design-checkpoint.json'), '{"broken');
    const corrupt = await state(r, ['load', '--command', 'design']);
    expect(corrupt).toMatchObject({ code: 1, stdout: 'null\n' });
    expect(corrupt.stderr).toContain('Checkpoint file exists but is corrupt');
  });

  it('usage errors exit 2', async () => {
    const r = repo();
    for (const args of [[], ['frobnicate', '--command', 'x'], ['load'], ['load', '--command', 'x', '--bogus'], ['update-phase', '--command', 'x']]) {
      const result = await state(r, args);
      expect(result.code, JSON.stringify(args)).toBe(2);
      expect(result.stderr).toContain('Usage:');
    }
    // Names that could leave the state directory are refused by the store.
    expect((await state(r, ['load', '--command', '../../etc/passwd'])).code).toBe(1);
  });
  it('the sub-agent handoff protocol (seed 002): handoff builds the request with the previous phase\'s summary and the mode; respond records the response', async () => {
    const r = repo();
    const words = (n: number): string => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    expect((await state(r, ['update-phase', '--command', 'implement', '--phase', 'design', '--json', JSON.stringify({ status: 'complete', context_summary: '5-file design, OAuth via PKCE' })])).code).toBe(0);

    const handoff = await state(r, ['handoff', '--command', 'implement', '--phase', 'code', '--mode', 'code', '--json', JSON.stringify({ task: 'Implement the callback', context: { files: ['src/auth.ts'] } })]);
    expect(handoff.code, handoff.stderr).toBe(0);
    expect(JSON.parse(handoff.stdout)).toEqual({
      task: 'Implement the callback',
      mode: 'code',
      context: { previous_summary: '5-file design, OAuth via PKCE', files: ['src/auth.ts'], command: 'implement', feature: null, phase: 'code' },
    });
    const loaded = JSON.parse((await state(r, ['load', '--command', 'implement'])).stdout) as { state: { current_phase: string }; phases: Record<string, { status: string; mode?: string }> };
    expect(loaded.state.current_phase).toBe('code');
    expect(loaded.phases['code']).toMatchObject({ status: 'in_progress', mode: 'code' });

    // No mode, an unknown mode: refused (exit 1), nothing changes.
    for (const args of [[], ['--mode', 'deploy']]) {
      const bad = await state(r, ['handoff', '--command', 'implement', '--phase', 'docs', ...args, '--json', '{"task":"t"}']);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/handoff request refused: mode: /);
    }

    // The response: over the limit it is refused unless --truncate; recorded, it completes the phase.
    const long = JSON.stringify({ status: 'complete', context_summary: words(501), files_created: ['src/auth.ts'] });
    const refused = await state(r, ['respond', '--command', 'implement', '--phase', 'code'], long);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Context summary exceeds 500 token limit (actual: 501 tokens)');
    const cut = await state(r, ['respond', '--command', 'implement', '--phase', 'code', '--truncate'], long);
    expect(cut.code, cut.stderr).toBe(0);
    const after = JSON.parse(cut.stdout) as { state: { completed_phases: string[] }; phases: Record<string, { status: string; context_summary: string; files_created: string[] }> };
    expect(after.state.completed_phases).toEqual(['design', 'code']);
    expect(after.phases['code']?.context_summary.split(' ')).toHaveLength(500);
    expect(after.phases['code']?.files_created).toEqual(['src/auth.ts']);

    // An oversized summary in the store (the file edited by hand) is refused when the next phase is handed out.
    const file = join(r.dir, '.agent-checkpoint', 'state', 'implement-checkpoint.json');
    const edited = JSON.parse(readFileSync(file, 'utf8')) as { phases: Record<string, { context_summary?: string }> };
    (edited.phases['code'] as { context_summary?: string }).context_summary = words(700);
    writeFileSync(file, JSON.stringify(edited));
    const next = await state(r, ['handoff', '--command', 'implement', '--phase', 'eval', '--mode', 'eval', '--json', '{"task":"Test it"}']);
    expect(next.code).toBe(1);
    expect(next.stderr).toContain('Context summary exceeds 500 token limit (actual: 700 tokens)');
  });
});
