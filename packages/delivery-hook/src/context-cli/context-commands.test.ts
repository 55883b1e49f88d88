import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSessionState, resolveStateDir } from '@agent-checkpoint/core';
import { sessionContextOf } from '@agent-checkpoint/context-checkpoint';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';
import { TEN_TASK_PLAN } from '../test-support/context-hook-project.ts';

// The context commands of `agent-checkpoint-hook` as real processes on a real repository, with a
// real Claude transcript where Claude keeps it ($HOME/.claude/projects/<slug>/<session>.jsonl).

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

const PLAN = TEN_TASK_PLAN;

/** A repository with context checkpoints on, a plan, and a Claude session at `percent` % of 200k, growing 5k per call. */
function project(percent = 50): { sb: HookSandbox; repo: string; run: (...args: string[]) => ReturnType<typeof runHookBundle> } {
  const sb = createHookSandbox('ac-context-cli-');
  sandbox = sb;
  const repo = join(sb.root, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: sb.env });
  writeFileSync(join(repo, '.agent-checkpoint.json'), JSON.stringify({ context: { enabled: true, windowTokens: 200_000 }, handoff: { enabled: true, planFile: 'PLAN.md' } }));
  writeFileSync(join(repo, 'PLAN.md'), PLAN);
  const dir = join(sb.home, '.claude', 'projects', repo.replace(/[^a-zA-Z0-9]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const last = (percent / 100) * 200_000;
  const entries = [0, 1, 2, 3].map((i) => ({
    type: 'assistant',
    uuid: `a${i}`,
    sessionId: 'sess-1',
    cwd: repo,
    timestamp: `2026-01-07T11:0${i}:00.000Z`,
    message: { id: `msg_${i}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 100, cache_read_input_tokens: last - (3 - i) * 5_000 - 100, cache_creation_input_tokens: 0, output_tokens: 10 } },
  }));
  writeFileSync(join(dir, 'sess-1.jsonl'), `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
  return { sb, repo, run: (...args) => runHookBundle({ args, env: sb.env, cwd: repo }) };
}

describe('context commands', () => {
  it('shard <plan>: --dry-run shows three shards and writes nothing; then writes them, and keeps them on a rerun', async () => {
    const { repo, run } = project();
    const dry = await run('shard', 'PLAN.md', '--dry-run', '--json');
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout) as { dryRun: boolean; dir: string; written: string[]; shardPlan: { action: string; shards: { items: unknown[] }[] } };
    expect(planned.dryRun).toBe(true);
    expect(planned.shardPlan.action).toBe('must-shard');
    expect(planned.shardPlan.shards).toHaveLength(3);
    expect(planned.written).toEqual([]);
    expect(existsSync(join(repo, '.agent-checkpoint', 'shards'))).toBe(false);

    const wrote = await run('shard', 'PLAN.md');
    expect(wrote.code).toBe(0);
    expect(wrote.stdout).toMatch(/PLAN\.md: 10 open items, .*\(must-shard\)\.\n {2}1\. Move part 1/);
    expect(wrote.stdout).toContain(`Wrote 3 files under ${planned.dir}/`);
    const files = readdirSync(join(repo, planned.dir)).filter((f) => f.endsWith('.md'));
    expect(files).toHaveLength(3);
    expect(readFileSync(join(repo, planned.dir, files[0]!), 'utf8')).toContain('Move part 1');
    const again = await run('shard', 'PLAN.md');
    expect(again.stdout).toContain('Wrote 0 files');
    expect(again.stdout).toContain('kept 3 existing');
    // Outside the project: refused.
    expect((await run('shard', '../elsewhere.md')).code).toBe(1);
  });

  it('estimate "<task>": against the newest session (50 % used) with the plan, --json and text', async () => {
    const { run } = project(50);
    const json = await run('estimate', 'Work through the plan: refactor every billing module', '--json');
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout) as { used: number; window: number; planFile: string; estimate: { recommendation: string; band: string; features: { planOpenItems: number } } };
    expect(out.used).toBe(100_000);
    expect(out.window).toBe(200_000);
    expect(out.planFile).toBe('PLAN.md');
    expect(out.estimate.features.planOpenItems).toBe(10);
    expect(out.estimate.band).toBe('large');
    expect(out.estimate.recommendation).toBe('shard-first');
    const text = await run('estimate', 'fix the typo in README.md', '--plan', 'PLAN.md');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Estimate: ~\d+ tokens/);
    expect(text.stdout).toContain('newest session: claude');
  });

  it('estimate and shard price the same plan the same (one model; issue 21: they said 74 % and 56 %)', async () => {
    const { repo, run } = project(10);
    // The plan: fourteen open items of ordinary size.
    writeFileSync(join(repo, 'BILLING.md'), ['# Plan: billing cleanup', ...Array.from({ length: 14 }, (_, i) => `- [ ] Clean up billing step ${i + 1}`)].join('\n'));
    const estimate = await run('estimate', 'Work through the plan', '--plan', 'BILLING.md', '--json');
    const shard = await run('shard', 'BILLING.md', '--dry-run', '--json');
    expect([estimate.code, shard.code]).toEqual([0, 0]);
    const e = (JSON.parse(estimate.stdout) as { estimate: { tokens: number; percentOfWindow: number; basis: { kind: string } } }).estimate;
    const s = (JSON.parse(shard.stdout) as { shardPlan: { totalTokens: number; percentOfWindow: number } }).shardPlan;
    expect(e.basis.kind).toBe('plan');
    expect(e.tokens).toBe(s.totalTokens);
    expect(e.percentOfWindow).toBe(s.percentOfWindow);
    // "yes" against the configured plan is its current item, said so in the text output.
    const yes = await run('estimate', 'yes');
    expect(yes.stdout).toMatch(/Recommendation: proceed\nEstimated: the plan's current item \(line 4\)/);
    // Once the configured plan is sharded, `estimate` prices its current shard, as the prompt hook does.
    expect((await run('shard', 'PLAN.md')).code).toBe(0);
    const sharded = JSON.parse((await run('estimate', 'Work through the plan', '--json')).stdout) as { estimate: { basis: { kind: string; items: { text: string }[] } } };
    expect(sharded.estimate.basis.kind).toBe('plan');
    expect(sharded.estimate.basis.items.map((i) => i.text)).toEqual(['Move part 1 into `src/billing/part-1.ts`', 'Move part 2 into `src/billing/part-2.ts`', 'Move part 3 into `src/billing/part-3.ts`']);
  });

  it('checkpoint --status: %, trend, next level and recommendation from the newest session', async () => {
    const { run } = project(65);
    const json = await run('checkpoint', '--status', '--json');
    expect(json.code).toBe(0);
    const status = JSON.parse(json.stdout) as { reading: { displayPercent: number; level: string }; trend: { tokensPerCall: number }; next: { target: string; tokens: number; calls: number }; recommendation: string };
    expect(status.reading).toMatchObject({ displayPercent: 65, level: 'L0' });
    expect(status.trend.tokensPerCall).toBe(5_000);
    expect(status.next).toMatchObject({ target: 'L1', tokens: 10_000, calls: 2 });
    expect(status.recommendation).toMatch(/continue/);
    const text = await run('checkpoint', '--status');
    expect(text.stdout).toMatch(/^Context: 65 % \(130000 of 200000 tokens\), L0/);
    expect(text.stdout).toContain('Next: L1 at 70 %, 10000 tokens away (~2 calls');
  });

  it('checkpoint: writes a handoff now, recorded as user-initiated; report shows it', async () => {
    const { repo, run } = project(88);
    const wrote = await run('checkpoint', '--json');
    expect(wrote.code).toBe(0);
    const out = JSON.parse(wrote.stdout) as { handoff: string; level: string; trigger: string };
    expect(out).toMatchObject({ level: 'L2', trigger: 'user' });
    const markdown = readFileSync(join(repo, out.handoff), 'utf8');
    expect(markdown).toContain('# Session Handoff');
    const report = await run('report', '--json');
    expect(report.code).toBe(0);
    const r = JSON.parse(report.stdout) as { report: { handoffs: { total: number; user: number; byLevel: { L2: number } } } };
    expect(r.report.handoffs).toMatchObject({ total: 1, user: 1, byLevel: { L2: 1 } });
    const text = await run('report');
    expect(text.stdout).toMatch(/Handoffs: 1 \(L1 0, L2 1, L3 0\); auto 0, user 1/);
  });

  it('checkpoint --defer: records "one more task" in the newest session\'s context slot; L3 is refused; writes no handoff', async () => {
    const { sb, repo, run } = project(88);
    const deferred = await run('checkpoint', '--defer', '--json');
    expect(deferred.code).toBe(0);
    expect(JSON.parse(deferred.stdout)).toMatchObject({ deferred: 'L2', agent: 'claude', sessionId: 'sess-1' });
    const location = { stateDir: resolveStateDir({ env: sb.env }), agent: 'claude' as const, sessionId: 'sess-1' };
    expect(sessionContextOf((await readSessionState(location)).state)).toMatchObject({ deferredLevel: 'L2' });
    expect(existsSync(join(repo, '.agent-checkpoint', 'handoffs'))).toBe(false);

    const l1 = await run('checkpoint', '--defer', '--level', 'L1', '--session', 'other-session');
    expect(l1.code).toBe(0);
    expect(l1.stdout).toContain('Deferred L1 for one more task in claude session other-session');
    expect(sessionContextOf((await readSessionState({ ...location, sessionId: 'other-session' })).state)).toMatchObject({ deferredLevel: 'L1' });

    const l3 = await run('checkpoint', '--defer', '--level', 'L3');
    expect(l3.code).not.toBe(0);
    expect(l3.stderr).toMatch(/--level must be L1 or L2/);

    // Another agent's session: its own state file, where that agent's monitor and turn end read it.
    expect((await run('checkpoint', '--defer', '--agent', 'gemini', '--session', 'g-1')).code).toBe(0);
    expect(sessionContextOf((await readSessionState({ ...location, agent: 'gemini', sessionId: 'g-1' })).state)).toMatchObject({ deferredLevel: 'L2' });
    const unknown = await run('checkpoint', '--defer', '--agent', 'vim', '--session', 'g-1');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/--agent must be claude, gemini, codex, copilot, qwen or pi,/);
  });
});
