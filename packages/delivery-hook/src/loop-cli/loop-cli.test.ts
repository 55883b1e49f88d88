import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readAutonomousState } from '@agent-checkpoint/context-checkpoint';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { writeOwnHandoff } from '../test-support/own-handoff.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';

// `loop start|next|status` and `resume-prompt` inside a loop, as a loop runner calls them: the built
// bin in real processes, on a real repository.

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

const HANDOFF = `---
session_date: 2026-01-07
session_time: "11:45"
branch: main
checkpoint_trigger: L2 (context at 87%)
---

# Session Handoff: OAuth
`;

function repo(): { env: Record<string, string>; root: string } {
  sandbox = createHookSandbox('ac-loop-cli-');
  const root = join(sandbox.root, 'repo');
  mkdirSync(join(root, 'src'), { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root, env: sandbox.env });
  return { env: sandbox.env, root };
}

/** What the Stop route does at an L2 turn end inside a loop (recordLoopTurn), done by hand. */
function handoffWritten(root: string, name: string): string {
  const rel = `.agent-checkpoint/handoffs/${name}`;
  writeOwnHandoff((sandbox as HookSandbox).stateDir, root, rel, HANDOFF);
  const statePath = join(root, '.agent-checkpoint', 'loop-state.json');
  const state = JSON.parse(readFileSync(statePath, 'utf8')) as { iteration: number; context_checkpoint: object; context_history: object[] };
  state.context_checkpoint = { active: true, level: 'L2', percent_at_checkpoint: 87, timestamp: new Date().toISOString(), handoff_file: rel, handoff_iteration: state.iteration, handoff_consumed: false };
  state.context_history.push({ iteration: state.iteration, peak_percent: 87, checkpoint: true });
  writeFileSync(statePath, JSON.stringify(state));
  writeFileSync(join(root, '.agent-checkpoint', 'loop-end-iteration'), `${rel}\n`);
  return rel;
}

describe('agent-checkpoint-hook loop', () => {
  it('a manual `checkpoint` during a loop is the loop\'s checkpoint too: the end signal, loop next exit 10, loop status', async () => {
    const { env, root } = repo();
    const run = (...args: string[]) => runHookBundle({ args, env, cwd: root });
    writeFileSync(join(root, '.agent-checkpoint.json'), JSON.stringify({ context: { enabled: true }, handoff: { enabled: true } }));
    expect((await run('loop', 'start')).code).toBe(0);
    expect(await run('loop', 'next')).toMatchObject({ code: 0, stdout: 'iteration 1\n' });
    const wrote = await run('checkpoint', '--json');
    expect(wrote.code, wrote.stderr).toBe(0);
    const { handoff } = JSON.parse(wrote.stdout) as { handoff: string };
    expect(readFileSync(join(root, '.agent-checkpoint', 'loop-end-iteration'), 'utf8')).toBe(`${handoff}\n`);
    expect((await run('loop', 'status')).stdout).toContain(`in iteration 1, ${handoff}`);
    expect((await run('loop', 'next')).code).toBe(10);
  });

  it('RLP-006: loop next estimates the plan\'s next item with the estimator\'s model; the state and loop status show it', async () => {
    const { env, root } = repo();
    const run = (...args: string[]) => runHookBundle({ args, env, cwd: root });
    writeFileSync(join(root, '.agent-checkpoint.json'), JSON.stringify({ context: { enabled: true, windowTokens: 200_000 }, handoff: { enabled: true, planFile: 'PLAN.md' } }));
    const plan = ['# Plan', '- [x] Add the parser', '- [ ] Refactor every caller of `src/billing/tax.ts` across src/api/ and src/jobs/', '- [ ] Document it in docs/tax.md'];
    writeFileSync(join(root, 'PLAN.md'), plan.join('\n'));
    expect((await run('loop', 'start')).code).toBe(0);

    const next = await run('loop', 'next', '--json');
    expect(next).toMatchObject({ code: 0, stderr: '' });
    const item = (JSON.parse(next.stdout) as { next_item: { file: string; line: number; text: string; estimated_tokens: number; estimated_percent: number; band: string } }).next_item;
    expect(item).toMatchObject({ file: 'PLAN.md', line: 3, text: 'Refactor every caller of `src/billing/tax.ts` across src/api/ and src/jobs/', band: 'small' });
    // The same price `estimate` gives for "the next item" and `shard` gives the item: one model.
    const estimate = JSON.parse((await run('estimate', 'do the next item', '--json')).stdout) as { estimate: { tokens: number; basis: { kind: string } } };
    expect(estimate.estimate.basis.kind).toBe('current-item');
    expect(item.estimated_tokens).toBe(estimate.estimate.tokens);
    const shard = JSON.parse((await run('shard', 'PLAN.md', '--dry-run', '--json')).stdout) as { shardPlan: { shards: { items: { line: number; tokens: number }[] }[] } };
    expect(shard.shardPlan.shards[0]?.items[0]).toMatchObject({ line: 3, tokens: item.estimated_tokens });
    expect(item.estimated_percent).toBe(Math.round((item.estimated_tokens / 200_000) * 1000) / 10);

    const state = JSON.parse(readFileSync(join(root, '.agent-checkpoint', 'loop-state.json'), 'utf8')) as { next_item: unknown };
    expect(state.next_item).toEqual(item);
    const status = await run('loop', 'status');
    expect(status.stdout).toContain(`Next item: ${item.text} (PLAN.md:3, ~${item.estimated_percent} % of the window, ~${item.estimated_tokens} tokens, small)`);

    // Item done: the next `loop next` estimates the one after it; text output too.
    writeFileSync(join(root, 'PLAN.md'), plan.join('\n').replace('- [ ] Refactor', '- [x] Refactor'));
    const text = await run('loop', 'next');
    expect(text.stdout).toMatch(/^iteration 2\nNext item: Document it in docs\/tax\.md \(PLAN\.md:4, ~[\d.]+ % of the window, ~\d+ tokens, small\)\n$/);
    // Nothing open: no item, and the old one is not kept.
    writeFileSync(join(root, 'PLAN.md'), '- [x] all done');
    expect((await run('loop', 'next')).stdout).toBe('iteration 3\n');
    expect(JSON.parse(readFileSync(join(root, '.agent-checkpoint', 'loop-state.json'), 'utf8'))).not.toHaveProperty('next_item');
  });

  it('start, next (exit 10 after a handoff), resume-prompt consumes it once, status shows the history', async () => {
    const { env, root } = repo();
    const run = (...args: string[]) => runHookBundle({ args, env, cwd: join(root, 'src') });

    expect(await run('loop', 'status')).toMatchObject({ code: 3, stdout: '' });
    expect(await run('loop', 'start')).toMatchObject({ code: 0, stdout: 'loop started: .agent-checkpoint/loop-state.json\n', stderr: '' });
    expect(await run('loop', 'next')).toMatchObject({ code: 0, stdout: 'iteration 1\n' });
    const rel = handoffWritten(root, '2026-01-07-1145.md');

    const next = await run('loop', 'next', '--json');
    expect(next.code).toBe(10);
    expect(JSON.parse(next.stdout)).toEqual({ iteration: 2, resume: true, signalled: true, handoff_file: rel });
    expect(existsSync(join(root, '.agent-checkpoint', 'loop-end-iteration'))).toBe(false);

    // --peek renders without consuming; the plain call renders and consumes; then nothing.
    const peek = await run('resume-prompt', '--peek');
    expect(peek.stdout).toContain(`- **Handoff**: ${rel}`);
    const first = await run('resume-prompt');
    expect(first).toMatchObject({ code: 0, stdout: peek.stdout });
    const again = await run('resume-prompt');
    expect(again).toMatchObject({ code: 0, stdout: '' });
    expect(again.stderr).toContain(`${rel} was already resumed in this loop`);
    // Iteration 3 is not told to resume it again.
    expect(await run('loop', 'next')).toMatchObject({ code: 0, stdout: 'iteration 3\n' });

    const status = await run('loop', 'status');
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(status.stdout).toMatch(/^Loop iteration: 3 \(started .+\)\n/);
    expect(status.stdout).toContain(`Checkpoint: L2 at 87% in iteration 1, ${rel} (resumed)\n`);
    expect(status.stdout).toContain('Context history (peak per iteration):\n    1   87%  handoff\n');
    const json = await run('loop', 'status', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ iteration: 3, context_checkpoint: { handoff_consumed: true, active: false } });
  });

  it('a new handoff after a consumed one is resumed again (once)', async () => {
    const { env, root } = repo();
    const run = (...args: string[]) => runHookBundle({ args, env, cwd: root });
    await run('loop', 'start');
    await run('loop', 'next');
    handoffWritten(root, '2026-01-07-1145.md');
    expect((await run('loop', 'next')).code).toBe(10);
    expect((await run('resume-prompt')).stdout).toContain('2026-01-07-1145.md');
    const rel = handoffWritten(root, '2026-01-07-1300.md');
    expect((await run('loop', 'next')).code).toBe(10);
    expect((await run('resume-prompt')).stdout).toContain(rel);
    expect((await run('resume-prompt')).stdout).toBe('');
  });

  it('autonomous mode: loop start switches it on in the user\'s state directory, loop next refreshes it, loop end clears it', async () => {
    const { env, root } = repo();
    const stateDir = (sandbox as HookSandbox).stateDir;
    const run = (...args: string[]) => runHookBundle({ args, env, cwd: join(root, 'src') });
    const state = () => readAutonomousState({ stateDir, projectRoot: root, now: new Date() });
    expect(state().kind).toBe('inactive');
    expect((await run('loop', 'start')).code).toBe(0);
    const started = state();
    expect(started.kind).toBe('active');
    // Nothing of it in the working tree.
    expect(existsSync(join(root, '.agent-checkpoint', 'autonomous'))).toBe(false);
    expect((await run('loop', 'next')).code).toBe(0);
    const refreshed = state();
    expect(refreshed).toMatchObject({ kind: 'active', flag: { started_at: started.kind === 'active' ? started.flag.started_at : '' } });
    expect(await run('loop', 'end')).toMatchObject({ code: 0, stdout: 'loop ended; autonomous mode off\n', stderr: '' });
    expect(state()).toMatchObject({ kind: 'inactive', reason: 'no-flag' });
    // The loop state stays for `loop status`.
    expect((await run('loop', 'status')).stdout).toContain('Loop iteration: 1');
    expect(await run('loop', 'end', '--json')).toMatchObject({ code: 0, stdout: '{"ended":true,"autonomous_cleared":false}\n' });
  });

  it('bad input: usage errors exit 2, a corrupt state file exits 1 and is left alone, resume-prompt still exits 0', async () => {
    const { env, root } = repo();
    const run = (...args: string[]) => runHookBundle({ args, env, cwd: root });
    for (const args of [['loop', 'restart'], ['loop', 'next', '--bogus']]) {
      const bad = await run(...args);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stdout).toBe('');
    }
    mkdirSync(join(root, '.agent-checkpoint', 'handoffs'), { recursive: true });
    writeFileSync(join(root, '.agent-checkpoint', 'loop-state.json'), '[1,2');
    writeOwnHandoff((sandbox as HookSandbox).stateDir, root, '.agent-checkpoint/handoffs/2026-01-07-1145.md', HANDOFF);
    for (const op of ['next', 'status']) {
      const bad = await run('loop', op);
      expect(bad).toMatchObject({ code: 1, stdout: '' });
      expect(bad.stderr).toBe('agent-checkpoint: loop: .agent-checkpoint/loop-state.json is not JSON\n');
    }
    const prompt = await run('resume-prompt');
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toContain('## CONTEXT CHECKPOINT RESUME');
    expect(prompt.stderr).toContain('loop-state.json is not JSON; the handoff is not marked consumed');
    expect(readFileSync(join(root, '.agent-checkpoint', 'loop-state.json'), 'utf8')).toBe('[1,2');
  });
});
