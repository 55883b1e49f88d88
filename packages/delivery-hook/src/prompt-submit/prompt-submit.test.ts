import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';
import { TEN_TASK_PLAN } from '../test-support/context-hook-project.ts';

// `agent-checkpoint-hook prompt-submit <agent>` as a real process (seed 004 EST-001..004, SHD-002):
// a task estimate warning added to the prompt's context, never a block.

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

/** Ten open items of ~13k tokens each (a path mention each): ~70 % of a 200k window. */
const PLAN = TEN_TASK_PLAN;

const CONTEXT_ON = { context: { enabled: true, windowTokens: 200_000 }, handoff: { enabled: true, planFile: 'PLAN.md' } };

function project(config: Record<string, unknown> = CONTEXT_ON): { sb: HookSandbox; repo: string; transcript: string } {
  sandbox = createHookSandbox('ac-prompt-submit-');
  const repo = join(sandbox.root, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: sandbox.env });
  writeFileSync(join(repo, '.agent-checkpoint.json'), JSON.stringify(config));
  writeFileSync(join(repo, 'PLAN.md'), PLAN);
  const transcript = join(sandbox.root, 'session.jsonl');
  return { sb: sandbox, repo, transcript };
}

/** A Claude transcript whose newest model call had `contextTokens` in the window. */
function claudeTranscript(path: string, contextTokens: number): void {
  const entries = [
    { type: 'user', uuid: 'u1', sessionId: 's-1', timestamp: '2026-01-07T11:00:00.000Z', message: { role: 'user', content: 'earlier work' } },
    {
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      sessionId: 's-1',
      timestamp: '2026-01-07T11:00:05.000Z',
      message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'done' }], usage: { input_tokens: 1_000, cache_read_input_tokens: contextTokens - 1_000, cache_creation_input_tokens: 0, output_tokens: 50 } },
    },
  ];
  writeFileSync(path, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
}

const payload = (agent: string, repo: string, transcript: string | null, prompt: string): string =>
  JSON.stringify({
    session_id: 's-1',
    transcript_path: transcript,
    cwd: repo,
    hook_event_name: agent === 'gemini' ? 'BeforeAgent' : 'UserPromptSubmit',
    prompt,
    ...(agent === 'claude' ? { prompt_id: 'p-1', permission_mode: 'default' } : {}),
  });

const LARGE_PROMPT = 'Work through PLAN.md: refactor every billing module and migrate all callers.';

describe('prompt-submit', () => {
  it('seed scenario "task estimation warning" + "shard suggestion": at ~50 % a large task gets a warning with the plan\'s 3-shard breakdown, as UserPromptSubmit context', async () => {
    const { sb, repo, transcript } = project();
    claudeTranscript(transcript, 100_000);
    const run = await runHookBundle({ args: ['prompt-submit', 'claude'], stdin: payload('claude', repo, transcript, LARGE_PROMPT), env: sb.env, cwd: repo });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const output = JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(Object.keys(output)).toEqual(['hookSpecificOutput']);
    expect(output.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    const context = output.hookSpecificOutput.additionalContext;
    expect(context).toMatch(/^\[agent-checkpoint\] This task is estimated at ~\d+ % of the context window/);
    expect(context).toContain('should be sharded before starting');
    expect(context).toMatch(/The plan \(PLAN\.md\) has 10 open items, ~\d+ % of the window: suggested 3 shards, one per session:/);
    expect(context).toMatch(/\n {2}1\. Move part 1 .*\n {2}2\. .*\n {2}3\. /);
    expect(context).toContain('agent-checkpoint-hook shard PLAN.md');
    // Never a block: no decision, no continue:false.
    expect(run.stdout).not.toMatch(/"decision"|"continue"/);
    // EST-004: the estimate waits for the Stop hook.
    const pending = JSON.parse(readFileSync(join(sb.stateDir, 'estimates', 'pending', 's-1.json'), 'utf8')) as { estimatedTokens: number; contextTokensAtSubmit: number };
    expect(pending.contextTokensAtSubmit).toBe(100_000);
    expect(pending.estimatedTokens).toBeGreaterThan(120_000);
  });

  it('issue 24: from a plugin the shard command is one the agent can run there (Claude: on its Bash PATH unless the path has a character Claude drops it for)', async () => {
    const { sb, repo, transcript } = project();
    claudeTranscript(transcript, 100_000);
    const contextOf = async (pluginRoot: string): Promise<string> => {
      const run = await runHookBundle({ args: ['prompt-submit', 'claude'], stdin: payload('claude', repo, transcript, LARGE_PROMPT), env: { ...sb.env, CLAUDE_PLUGIN_ROOT: pluginRoot }, cwd: repo });
      expect(run.code, run.stderr).toBe(0);
      return (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    };
    expect(await contextOf('/p/plain')).toContain('Write them with: agent-checkpoint-hook shard PLAN.md');
    expect(await contextOf("/p/it's")).toContain("Write them with: node '/p/it'\\''s/dist/agent-checkpoint-hook.cjs' shard PLAN.md");
  });

  it('EST-004: the next Stop records what a prompt-only turn actually used (task history + metrics)', async () => {
    const { sb, repo, transcript } = project();
    // A task of its own (not the plan's): its estimate and the turn's growth are like with like.
    const TASK = 'Add input validation to src/api/users.ts and src/api/orders.ts';
    claudeTranscript(transcript, 100_000);
    const submit = await runHookBundle({ args: ['prompt-submit', 'claude'], stdin: payload('claude', repo, transcript, TASK), env: sb.env, cwd: repo });
    expect(submit.code).toBe(0);
    // The turn: the prompt, then a model call that took the context to 130k.
    const t = Date.now() + 1_000;
    const turn = [
      { type: 'user', uuid: 'u2', parentUuid: 'a1', sessionId: 's-1', promptId: 'p-1', timestamp: new Date(t).toISOString(), message: { role: 'user', content: TASK } },
      {
        type: 'assistant',
        uuid: 'a2',
        parentUuid: 'u2',
        sessionId: 's-1',
        timestamp: new Date(t + 1_000).toISOString(),
        message: { id: 'msg_2', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'I will shard it first.' }], usage: { input_tokens: 1_000, cache_read_input_tokens: 129_000, cache_creation_input_tokens: 0, output_tokens: 50 } },
      },
    ];
    writeFileSync(transcript, `${readFileSync(transcript, 'utf8')}${turn.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const stop = { session_id: 's-1', transcript_path: transcript, cwd: repo, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'I will shard it first.' };
    const run = await runHookBundle({ args: ['claude'], stdin: JSON.stringify(stop), env: sb.env, cwd: repo });
    expect(run.code).toBe(0);
    expect(existsSync(join(sb.stateDir, 'estimates', 'pending', 's-1.json'))).toBe(false);
    const logs = (dir: string) => readdirSync(join(sb.stateDir, dir)).filter((f) => f.endsWith('.jsonl')).map((f) => readFileSync(join(sb.stateDir, dir, f), 'utf8'));
    const [history] = logs('estimates');
    expect(JSON.parse(history!.trim())).toMatchObject({ basis: 'prompt', actualTokens: 30_000 });
    const [metrics] = logs('metrics');
    expect(JSON.parse(metrics!.trim())).toMatchObject({ type: 'estimate', actualTokens: 30_000 });
  });

  it('once the plan is sharded, the task is the current shard: no breakdown again', async () => {
    const { sb, repo, transcript } = project();
    claudeTranscript(transcript, 100_000);
    const shard = await runHookBundle({ args: ['shard', 'PLAN.md'], env: sb.env, cwd: repo });
    expect(shard.code).toBe(0);
    const run = await runHookBundle({ args: ['prompt-submit', 'claude'], stdin: payload('claude', repo, transcript, LARGE_PROMPT), env: sb.env, cwd: repo });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('suggested');
    const pending = JSON.parse(readFileSync(join(sb.stateDir, 'estimates', 'pending', 's-1.json'), 'utf8')) as { features: { planOpenItems: number } };
    // The first shard's items (3 of the plan's 10).
    expect(pending.features.planOpenItems).toBe(3);
  });

  it('issue 21: "yes" with a plan set is the current item, not the whole plan (was an oversize warning at 74 %); the turn is not learned from', async () => {
    const { sb, repo, transcript } = project();
    // The plan: fourteen open items of ordinary size (74 % when added to every prompt).
    writeFileSync(join(repo, 'PLAN.md'), ['# Plan: billing cleanup', ...Array.from({ length: 14 }, (_, i) => `- [ ] Clean up billing step ${i + 1}`)].join('\n'));
    claudeTranscript(transcript, 40_000);
    const run = await runHookBundle({ args: ['prompt-submit', 'claude'], stdin: payload('claude', repo, transcript, 'yes'), env: sb.env, cwd: repo });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const pending = JSON.parse(readFileSync(join(sb.stateDir, 'estimates', 'pending', 's-1.json'), 'utf8')) as { basis: string; estimatedTokens: number; features: { planOpenItems: number } };
    expect(pending.basis).toBe('current-item');
    expect(pending.features.planOpenItems).toBe(1);
    expect(pending.estimatedTokens).toBeLessThan(0.1 * 200_000);
    // The Stop hook closes it into the history with its basis; it is not an accuracy sample.
    const t = Date.now() + 1_000;
    const turn = [
      { type: 'user', uuid: 'u2', parentUuid: 'a1', sessionId: 's-1', promptId: 'p-1', timestamp: new Date(t).toISOString(), message: { role: 'user', content: 'yes' } },
      {
        type: 'assistant',
        uuid: 'a2',
        parentUuid: 'u2',
        sessionId: 's-1',
        timestamp: new Date(t + 1_000).toISOString(),
        message: { id: 'msg_2', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Step 1 done.' }], usage: { input_tokens: 1_000, cache_read_input_tokens: 45_000, cache_creation_input_tokens: 0, output_tokens: 50 } },
      },
    ];
    writeFileSync(transcript, `${readFileSync(transcript, 'utf8')}${turn.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const stop = { session_id: 's-1', transcript_path: transcript, cwd: repo, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Step 1 done.' };
    expect((await runHookBundle({ args: ['claude'], stdin: JSON.stringify(stop), env: sb.env, cwd: repo })).code).toBe(0);
    const [history] = readdirSync(join(sb.stateDir, 'estimates')).filter((f) => f.endsWith('.jsonl'));
    expect(JSON.parse(readFileSync(join(sb.stateDir, 'estimates', history!), 'utf8').trim())).toMatchObject({ basis: 'current-item', actualTokens: 6_000 });
    expect(existsSync(join(sb.stateDir, 'metrics'))).toBe(false);
  });

  it('gemini: the SessionStart context Gemini prepends to the first prompt (a resumed handoff naming the plan) is not the user asking for the plan', async () => {
    const { sb, repo } = project();
    // As Gemini CLI 0.61 sends it in BeforeAgent after our SessionStart hook resumed a handoff (seen in
    // the loop acceptance e2e: iteration 2 got an oversize warning for the whole plan).
    const injected = '<hook_context>The previous session ended with a context checkpoint. Read .agent-checkpoint/handoffs/h.md.\n\n## Next Steps\n\nContinue the plan in `PLAN.md`.\n</hook_context>\n\n';
    const prompt = 'Loop iteration 2 of 3. Work on the calculator; one step per iteration.';
    const run = await runHookBundle({ args: ['prompt-submit', 'gemini'], stdin: payload('gemini', repo, null, `${injected}${prompt}`), env: sb.env, cwd: repo });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const pending = JSON.parse(readFileSync(join(sb.stateDir, 'estimates', 'pending', 's-1.json'), 'utf8')) as { basis: string };
    expect(pending.basis).toBe('prompt');
    // The user's own words still count: naming the plan after the injected context prices the plan.
    const named = await runHookBundle({ args: ['prompt-submit', 'gemini'], stdin: payload('gemini', repo, null, `${injected}${LARGE_PROMPT}`), env: sb.env, cwd: repo });
    expect((JSON.parse(named.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext).toContain('suggested 3 shards');
  });

  it('issue 21: report counts each delivered warning once, by kind (a shard breakdown is a shard suggestion); a prompt that fits counts nothing', async () => {
    const { sb, repo, transcript } = project();
    const submit = async (contextTokens: number, prompt: string): Promise<string> => {
      claudeTranscript(transcript, contextTokens);
      const run = await runHookBundle({ args: ['prompt-submit', 'claude'], stdin: payload('claude', repo, transcript, prompt), env: sb.env, cwd: repo });
      expect(run.code, run.stderr).toBe(0);
      return run.stdout;
    };
    // The plan's work at 50 %: the warning with the 3-shard breakdown.
    expect(await submit(100_000, LARGE_PROMPT)).toContain('suggested 3 shards');
    // A task of its own at 80 %: "may not fit", no breakdown.
    const late = await submit(160_000, 'Add input validation to src/api/users.ts and src/api/orders.ts');
    expect(late).toContain('It may not fit');
    expect(late).not.toContain('suggested');
    // A small task that fits: nothing said, nothing counted.
    expect(await submit(20_000, 'fix the typo in README.md')).toBe('');

    const report = await runHookBundle({ args: ['report', '--json'], env: sb.env, cwd: repo });
    expect(report.code, report.stderr).toBe(0);
    expect((JSON.parse(report.stdout) as { report: { alerts: unknown } }).report.alerts).toEqual({ l1Warnings: 0, estimateWarnings: 1, shardSuggestions: 1 });
    const [log] = readdirSync(join(sb.stateDir, 'metrics'));
    const events = readFileSync(join(sb.stateDir, 'metrics', log ?? ''), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.map(({ kind, shards }) => ({ kind, shards }))).toEqual([
      { kind: 'shard-suggestion', shards: 3 },
      { kind: 'estimate-warning', shards: undefined },
    ]);
    expect(events.every((e) => e['type'] === 'alert' && typeof e['estimatedPercent'] === 'number')).toBe(true);
  });

  it('a forged plan priced beyond the metrics log\'s bounds (millions of percent of a 1000-token window) still counts its warning once', async () => {
    const { sb, repo } = project({ context: { enabled: true, windowTokens: 1_000 }, handoff: { enabled: true, planFile: 'PLAN.md' } });
    // 500 items (the parser's cap), six files each: ~3,000,000 % of the smallest window the configuration allows.
    const files = (i: number): string => [1, 2, 3, 4, 5, 6].map((k) => `\`src/billing/part-${i}-${k}.ts\``).join(', ');
    writeFileSync(join(repo, 'PLAN.md'), ['# Plan', ...Array.from({ length: 500 }, (_, i) => `- [ ] Refactor and migrate ${files(i)}`)].join('\n'));
    const run = await runHookBundle({ args: ['prompt-submit', 'claude'], stdin: payload('claude', repo, null, LARGE_PROMPT), env: sb.env, cwd: repo });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('suggested');
    const report = await runHookBundle({ args: ['report', '--json'], env: sb.env, cwd: repo });
    expect((JSON.parse(report.stdout) as { report: { alerts: unknown }; skippedLines: number })).toMatchObject({ report: { alerts: { l1Warnings: 0, estimateWarnings: 0, shardSuggestions: 1 } }, skippedLines: 0 });
  });

  it('a small task that fits: nothing added (the estimate is still recorded)', async () => {
    const { sb, repo, transcript } = project({ context: { enabled: true, windowTokens: 200_000 } });
    claudeTranscript(transcript, 20_000);
    const run = await runHookBundle({ args: ['prompt-submit', 'claude'], stdin: payload('claude', repo, transcript, 'fix the typo in README.md'), env: sb.env, cwd: repo });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readdirSync(join(sb.stateDir, 'estimates', 'pending'))).toEqual(['s-1.json']);
  });

  it('a medium task that no longer fits before the handoff level (context at 80 %): checkpoint first', async () => {
    const { sb, repo, transcript } = project({ context: { enabled: true, windowTokens: 200_000 } });
    claudeTranscript(transcript, 160_000);
    const run = await runHookBundle({ args: ['prompt-submit', 'claude'], stdin: payload('claude', repo, transcript, 'Add input validation to src/api/users.ts and src/api/orders.ts'), env: sb.env, cwd: repo });
    expect(run.code).toBe(0);
    const context = (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(context).toContain('It may not fit: shard it, or checkpoint first');
  });

  it.each(['gemini', 'codex'] as const)('%s: the same warning in its prompt hook\'s shape', async (agent) => {
    const { sb, repo } = project();
    // No transcript usage (a fresh session): the plan alone is over 60 %.
    const run = await runHookBundle({ args: ['prompt-submit', agent], stdin: payload(agent, repo, null, LARGE_PROMPT), env: sb.env, cwd: repo });
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(output.hookSpecificOutput.hookEventName).toBe(agent === 'gemini' ? 'BeforeAgent' : 'UserPromptSubmit');
    expect(output.hookSpecificOutput.additionalContext).toContain('suggested 3 shards');
  });

  it('off --project silences it, also when the agent reports the repository through a symlinked path', async () => {
    const { sb, repo, transcript } = project();
    claudeTranscript(transcript, 100_000);
    const link = join(sb.root, 'link-to-repo');
    symlinkSync(repo, link);
    expect((await runHookBundle({ args: ['off', '--project', '--cwd', repo], env: sb.env, cwd: sb.root })).code).toBe(0);
    for (const cwd of [repo, link]) {
      const run = await runHookBundle({ args: ['prompt-submit', 'claude'], stdin: payload('claude', cwd, transcript, LARGE_PROMPT), env: sb.env, cwd });
      expect(run, cwd).toMatchObject({ code: 0, stdout: '' });
    }
    expect(existsSync(join(sb.stateDir, 'estimates'))).toBe(false);
  });

  it('cheap and silent when context checkpoints are off, switched off, or the payload is bad', async () => {
    const { sb, repo, transcript } = project({ handoff: { enabled: true, planFile: 'PLAN.md' } });
    claudeTranscript(transcript, 100_000);
    const off = await runHookBundle({ args: ['prompt-submit', 'claude'], stdin: payload('claude', repo, transcript, LARGE_PROMPT), env: sb.env, cwd: repo });
    expect(off).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(sb.stateDir, 'estimates'))).toBe(false);
    const disabled = await runHookBundle({ args: ['prompt-submit', 'claude'], stdin: payload('claude', repo, transcript, LARGE_PROMPT), env: { ...sb.env, AGENT_CHECKPOINT_DISABLE: '1' }, cwd: repo });
    expect(disabled).toMatchObject({ code: 0, stdout: '' });
    const bad = await runHookBundle({ args: ['prompt-submit', 'claude'], stdin: '{not json', env: sb.env, cwd: repo });
    expect(bad.code).toBe(0);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/prompt-submit/);
  });
});
