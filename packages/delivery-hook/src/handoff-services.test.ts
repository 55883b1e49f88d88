import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createDeliveryWorld, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { startClaudeMemMock, startLinearMock, type ClaudeMemMock, type LinearMock } from '@agent-checkpoint/context-checkpoint/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE } from './test-support/delivery-fixtures.ts';
import { createHookSandbox, type HookSandbox } from './test-support/hook-sandbox.ts';
import { FIXTURES_DIR } from './test-support/recorded-payloads.ts';
import { writeOwnHandoff } from './test-support/own-handoff.ts';
import { runHookBundle } from './test-support/run-hook-bundle.ts';

// The tracker (Linear) and claude-mem on every handoff route, as real hook processes against the
// loopback mocks: the monitor's L2/L3 handoff (post-tool), the PreCompact handoff, and the resume side
// (session-start, resume-prompt). Both services are enabled in the USER configuration file, the only
// place that may turn them on without trust. The context-level transcripts: L2 86 %, L3 96 %.

const KEY = 'lin_api_hook_routes';
const LEVELS = 'claude/2.1.330/context-levels';
const worlds: DeliveryWorld[] = [];
const sandboxes: HookSandbox[] = [];
let linear: LinearMock;
let mem: ClaudeMemMock;

beforeEach(async () => {
  linear = await startLinearMock({
    apiKey: KEY,
    teams: [{ id: 'team-anv', key: 'ANV' }],
    states: [
      { id: 'st-todo', name: 'Todo', type: 'unstarted', teamId: 'team-anv' },
      { id: 'st-progress', name: 'In Progress', type: 'started', teamId: 'team-anv' },
    ],
    issues: [{ id: 'uuid-123', identifier: 'ANV-123', title: 'OAuth callback', teamId: 'team-anv', stateId: 'st-todo' }],
  });
  mem = await startClaudeMemMock();
});
afterEach(async () => {
  while (worlds.length > 0) worlds.pop()?.remove();
  while (sandboxes.length > 0) sandboxes.pop()?.remove();
  await linear.close();
  await mem.close();
});

const SERVICES = { tracker: { enabled: true, l3State: 'In Progress' }, memory: { enabled: true } };

function servicesEnv(): Record<string, string> {
  return {
    LINEAR_API_KEY: KEY,
    AGENT_CHECKPOINT_LINEAR_ENDPOINT: linear.url,
    CLAUDE_MEM_WORKER_HOST: '127.0.0.1',
    CLAUDE_MEM_WORKER_PORT: String(mem.port),
    CLAUDE_MEM_DATA_DIR: '/nonexistent-claude-mem',
  };
}

function writeUserConfig(env: Readonly<Record<string, string | undefined>>, config: Record<string, unknown>): void {
  const dir = join(env['XDG_CONFIG_HOME'] ?? '', 'agent-checkpoint');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
}

/** A repository on an issue branch, with the turn's transcript at `level` and the project/user files. */
function world(level: 'L2' | 'L3', project: Record<string, unknown>, user: Record<string, unknown> = SERVICES): DeliveryWorld {
  const w = createDeliveryWorld({ ...CLAUDE_FIXTURE, transcriptFile: join(FIXTURES_DIR, LEVELS, `${level}.jsonl`) });
  worlds.push(w);
  w.writeConfig({ ...w.actionableConfig, ...project });
  const env = w.scenario('actionable').env;
  execFileSync('git', ['checkout', '-q', '-b', 'feature/ANV-123-oauth'], { cwd: w.repo, env });
  writeUserConfig(env, user);
  return w;
}

function postTool(w: DeliveryWorld) {
  const s = w.scenario('actionable');
  const stdin = JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: s.cwd, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'ok' });
  return runHookBundle({ args: ['post-tool', 'claude'], stdin, env: { ...s.env, ...servicesEnv() }, cwd: w.repo });
}

function preCompact(w: DeliveryWorld) {
  const s = w.scenario('actionable');
  const stdin = JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: s.cwd, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: null });
  return runHookBundle({ args: ['pre-compact', 'claude'], stdin, env: { ...s.env, ...servicesEnv() }, cwd: w.repo });
}

function onlyHandoff(w: DeliveryWorld): string {
  const dir = join(w.repo, '.agent-checkpoint', 'handoffs');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')) : [];
  expect(files).toHaveLength(1);
  return `.agent-checkpoint/handoffs/${files[0]}`;
}

const HANDOFFS_ON = { context: { enabled: true }, handoff: { enabled: true } };

describe('the monitor (post-tool) tells the tracker and claude-mem at its handoff', { timeout: 60_000 }, () => {
  it('L2: the handoff names the issue; one comment linking it (no state change) and one observation; once per level', async () => {
    const w = world('L2', HANDOFFS_ON);
    const result = await postTool(w);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toHaveProperty('systemMessage');
    const path = onlyHandoff(w);
    const handoff = readFileSync(join(w.repo, path), 'utf8');
    expect(handoff.split('\n---\n')[0]).toContain('\nlinear_issues: [ANV-123]');
    expect(handoff).toContain('## Linear Issue\n\n- ANV-123: OAuth callback');
    expect(linear.violations).toEqual([]);
    expect(linear.comments).toHaveLength(1);
    expect(linear.comments[0]?.body).toContain('Context checkpoint L2 at 86%');
    expect(linear.comments[0]?.body).toContain(`\`${path}\``);
    expect(linear.comments[0]?.body).toContain('`feature/ANV-123-oauth`');
    expect(linear.issues[0]?.stateId).toBe('st-todo');
    expect(mem.violations).toEqual([]);
    expect(mem.observations.map((o) => [o.title, o.project])).toEqual([['Context Checkpoint L2 at 86% - ANV-123', basename(w.repo)]]);
    // The next tool call at L2: nothing more, to anyone.
    expect(await postTool(w)).toMatchObject({ code: 0, stdout: '' });
    expect(linear.comments).toHaveLength(1);
    expect(mem.observations).toHaveLength(1);
  });

  it('L3: comment, the move to l3State and the context-checkpointed label', async () => {
    const w = world('L3', HANDOFFS_ON);
    const result = await postTool(w);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(linear.violations).toEqual([]);
    expect(linear.comments).toHaveLength(1);
    expect(linear.comments[0]?.body).toContain('Context checkpoint L3 at 96%');
    expect(linear.issues[0]?.stateId).toBe('st-progress');
    const label = linear.labels.find((l) => l.name === 'context-checkpointed');
    expect(linear.issues[0]?.labelIds).toEqual([label?.id]);
    expect(mem.observations.map((o) => o.title)).toEqual(['Context Checkpoint L3 at 96% - ANV-123']);
  });

  it('the services off (no user file) or set in the untrusted project file: the handoff, and no request', async () => {
    const w = world('L2', { ...HANDOFFS_ON, ...SERVICES }, {});
    const result = await postTool(w);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('tracker.enabled');
    expect(result.stderr).toContain('memory.enabled');
    expect(onlyHandoff(w)).toMatch(/\.md$/);
    expect(linear.requests).toEqual([]);
    expect(mem.requests).toEqual([]);
  });

  it('Linear and the worker down: the handoff and the answer still come, within the deadline, with diagnostics', async () => {
    const w = world('L2', HANDOFFS_ON);
    await linear.close();
    await mem.close();
    const result = await postTool(w);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty('systemMessage');
    expect(result.stderr).toContain('post-tool: tracker: comment on ANV-123 failed (network)');
    expect(result.stderr).toContain('post-tool: claude-mem: saving the checkpoint failed (unavailable)');
    onlyHandoff(w);
  });

  it('Linear and the worker hanging: the services give up at the hook deadline, the answer still comes, the comment waits in the outbox', async () => {
    const w = world('L2', HANDOFFS_ON, { tracker: { enabled: true, timeoutMs: 20_000 }, memory: { enabled: true, timeoutMs: 10_000 } });
    linear.fault({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
    mem.fault('hang');
    const deadlineMs = 4_000;
    const s = w.scenario('actionable');
    const stdin = JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: s.cwd, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'ok' });
    const result = await runHookBundle({ args: ['post-tool', 'claude'], stdin, env: { ...s.env, ...servicesEnv(), AGENT_CHECKPOINT_HOOK_DEADLINE_MS: String(deadlineMs) }, cwd: w.repo });
    expect(result.code).toBe(0);
    expect(result.ms).toBeLessThan(deadlineMs + 1_000);
    expect((JSON.parse(result.stdout) as { systemMessage: string }).systemMessage).toContain('handoff written to');
    expect(result.stderr).toContain('post-tool: tracker: comment on ANV-123 failed (network)');
    expect(result.stderr).toContain('post-tool: claude-mem: saving the checkpoint failed (network)');
    const outbox = JSON.parse(readFileSync(join(s.stateDir, 'tracker-outbox.json'), 'utf8')) as { issueId: string; actions: string[] }[];
    expect(outbox).toMatchObject([{ issueId: 'ANV-123', actions: ['comment'] }]);
    onlyHandoff(w);
  });
});

describe('the PreCompact handoff tells the tracker and claude-mem', { timeout: 60_000 }, () => {
  it('one comment linking the pre-compact handoff, and one observation', async () => {
    const w = world('L2', { handoff: { enabled: true } });
    const result = await preCompact(w);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const path = onlyHandoff(w);
    expect(readFileSync(join(w.repo, path), 'utf8')).toContain('linear_issues: [ANV-123]');
    expect(linear.violations).toEqual([]);
    expect(linear.comments).toHaveLength(1);
    expect(linear.comments[0]?.body).toContain(`\`${path}\``);
    expect(mem.observations.map((o) => o.title)).toEqual(['Context Checkpoint L2 at 86% - ANV-123']);
  });
});

describe('resume with claude-mem on', { timeout: 60_000 }, () => {
  const HANDOFF = `---
session_date: 2026-01-07
session_time: "11:45"
agent: claude
branch: feature/ANV-123
checkpoint_trigger: L2 (context at 87%)
context_at_checkpoint: 87%
---

# Session Handoff: OAuth
`;

  function project(user: Record<string, unknown>): { sb: HookSandbox; repo: string } {
    const sb = createHookSandbox('ac-handoff-services-');
    sandboxes.push(sb);
    const repo = join(sb.root, 'my-app');
    mkdirSync(join(repo, '.agent-checkpoint', 'handoffs'), { recursive: true });
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: sb.env });
    writeFileSync(join(repo, '.agent-checkpoint.json'), JSON.stringify({ handoff: { enabled: true } }));
    writeOwnHandoff(sb.stateDir, repo, '.agent-checkpoint/handoffs/2026-01-07-1145.md', HANDOFF);
    writeUserConfig(sb.env, user);
    return { sb, repo };
  }

  it('session-start: the injected handoff is preceded by the Memory Query section; no request is made', async () => {
    const { sb, repo } = project({ memory: { enabled: true } });
    const stdin = JSON.stringify({ session_id: 'next', transcript_path: join(repo, '..', 't.jsonl'), cwd: repo, hook_event_name: 'SessionStart', source: 'startup' });
    const result = await runHookBundle({ args: ['session-start', 'claude'], stdin, env: { ...sb.env, ...servicesEnv() }, cwd: repo });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const context = (JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(context).toContain('### Memory Query (Run First)');
    expect(context).toContain('`search` with query="Context Checkpoint L2"');
    expect(context.indexOf('Memory Query')).toBeLessThan(context.indexOf('# Session Handoff: OAuth'));
    expect(mem.requests).toEqual([]);
  });

  it('resume-prompt: the section anchors the timeline on the newest L2 checkpoint observation and carries the recent context', async () => {
    const { sb, repo } = project({ memory: { enabled: true } });
    for (const [title, project] of [['Context Checkpoint L2 at 86%', 'my-app'], ['Context Checkpoint L2 at 88%', 'other-app'], ['Context Checkpoint L2 at 87%', 'my-app']] as const) {
      const saved = await fetch(`${mem.url}/api/memory/save`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: `${title}.`, title, project }) });
      expect(saved.status).toBe(200);
    }
    mem.sessions.push({ project: 'my-app', request: 'Implement OAuth', next_steps: 'Token refresh' });
    const result = await runHookBundle({ args: ['resume-prompt', '--peek'], env: { ...sb.env, ...servicesEnv() }, cwd: repo });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('### Memory Query (Run First)');
    expect(result.stdout).toContain('`timeline` with anchor=3, depth_before=10');
    expect(result.stdout).toContain('**Next Steps:** Token refresh');
    expect(mem.violations).toEqual([]);
  });

  it('memory off: the prompt has no Memory Query section and nothing is asked', async () => {
    const { sb, repo } = project({});
    const result = await runHookBundle({ args: ['resume-prompt', '--peek'], env: { ...sb.env, ...servicesEnv() }, cwd: repo });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('## CONTEXT CHECKPOINT RESUME');
    expect(result.stdout).not.toContain('Memory Query');
    expect(mem.requests).toEqual([]);
  });
});

describe('shard with the tracker on (SHD-003/004), through the bin', () => {
  it('one sub-issue per shard under --issue; a rerun creates none; a finished shard moves to done with the parent\'s progress (shard, then loop next)', async () => {
    const sb = createHookSandbox('ac-shard-tracker-');
    sandboxes.push(sb);
    const repo = join(sb.root, 'repo');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: sb.env });
    writeFileSync(join(repo, '.agent-checkpoint.json'), JSON.stringify({ context: { enabled: true, windowTokens: 60_000 }, handoff: { planFile: 'PLAN.md' } }));
    writeFileSync(join(repo, 'PLAN.md'), ['# Plan', ...Array.from({ length: 6 }, (_, i) => `- [ ] Move part ${i + 1} into \`src/billing/part-${i + 1}.ts\` and update its callers`)].join('\n'));
    writeUserConfig(sb.env, { tracker: { enabled: true, shardDoneState: 'In Progress' } });
    const run = (...args: string[]) => runHookBundle({ args, env: { ...sb.env, ...servicesEnv() }, cwd: repo });
    const first = await run('shard', 'PLAN.md', '--issue', 'ANV-123', '--json');
    expect(first.code, first.stderr).toBe(0);
    const out = JSON.parse(first.stdout) as { written: string[]; tracker: { parent: string; created: string[]; issues: Record<string, { identifier: string }> } };
    expect(out.written.length).toBeGreaterThanOrEqual(2);
    expect(out.tracker.created).toHaveLength(out.written.length);
    const children = () => linear.issues.filter((i) => i.parentId === 'uuid-123');
    expect(children()).toHaveLength(out.written.length);

    const again = await run('shard', 'PLAN.md', '--issue', 'ANV-123');
    expect(again.stdout).toMatch(/Linear: sub-issues of ANV-123: ANV-\d+, ANV-\d+.* \(0 created\)\./);
    expect(children()).toHaveLength(out.written.length);

    const [file = ''] = out.written;
    writeFileSync(join(repo, file), readFileSync(join(repo, file), 'utf8').replaceAll('- [ ] ', '- [x] '));
    const done = await run('shard', 'PLAN.md', '--issue', 'ANV-123');
    const moved = out.tracker.issues[file]?.identifier ?? '';
    expect(done.stdout).toContain(`moved to done: ${moved}; progress posted on the parent.`);
    expect(linear.issues.find((i) => i.identifier === moved)?.stateId).toBe('st-progress');
    expect(linear.comments.filter((c) => c.issueId === 'uuid-123').at(-1)?.body).toMatch(/1 of \d shards done/);

    // In a loop, `loop next` notices the next finished shard by itself (the branch names the parent).
    execFileSync('git', ['checkout', '-q', '-b', 'feature/ANV-123-billing'], { cwd: repo, env: sb.env });
    const second = out.written[1] ?? '';
    writeFileSync(join(repo, second), readFileSync(join(repo, second), 'utf8').replaceAll('- [ ] ', '- [x] '));
    const comments = linear.comments.length;
    const next = await run('loop', 'next');
    expect(next.code, next.stderr).toBe(0);
    expect(linear.issues.find((i) => i.identifier === out.tracker.issues[second]?.identifier)?.stateId).toBe('st-progress');
    expect(linear.comments).toHaveLength(comments + 1);
    expect(linear.comments.at(-1)?.body).toMatch(/2 of \d shards done/);
    expect(children()).toHaveLength(out.written.length);
    expect(linear.violations).toEqual([]);
  });
});
