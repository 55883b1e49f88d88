import { describe, expect, it } from 'vitest';
import { readContextLevel, type KnownContextReading } from '../context/read-context-level.ts';
import type { GitSnapshot } from '@agent-checkpoint/core';
import { clockParts } from './clock-parts.ts';
import { failuresFromObservations } from './failures-from-observations.ts';
import type { HandoffData } from './handoff-types.ts';
import { parseHandoffFrontMatter } from './latest-handoff.ts';
import { codeSpan, fencedBlock, parseYamlScalar, yamlScalar } from './markdown-text.ts';
import { renderHandoff, triggerLabel } from './render-handoff.ts';
import { fileCall, shellCall, timelineOf } from './test-timeline.ts';

const NOW = new Date('2026-01-07T11:45:30.000Z');
const reading = readContextLevel({ contextTokens: 172_000, contextWindow: 200_000, model: 'gpt-5' }) as KnownContextReading;
const git: GitSnapshot = {
  kind: 'repo',
  root: '/work/repo',
  head: 'd36b6b4a1e2f3c4d5e6f7a8b9c0d1e2f3a4b5c6d',
  branch: 'feature/ANV-123',
  files: [
    { path: 'src/auth/oauth.ts', status: 'modified', source: 'worktree' },
    { path: 'src/new.ts', status: 'added', source: 'worktree' },
    { path: 'notes.txt', status: 'untracked', source: 'worktree' },
    { path: 'src/renamed.ts', fromPath: 'src/old.ts', status: 'renamed', source: 'worktree' },
    { path: 'docs/done.md', status: 'modified', source: 'committed' },
  ],
};
const timeline = timelineOf(
  [
    fileCall('c1', 'read', ['/work/repo/src/auth/oauth.ts']),
    fileCall('c2', 'edit', ['/work/repo/src/auth/oauth.ts']),
    fileCall('c3', 'write', ['src/new.ts']),
    shellCall('c4', 'pnpm test', 'error', 1, 'RUN v4\n FAIL src/auth/oauth.test.ts > callback\nAssertionError: expected 401 to be 200\n Tests 1 failed'),
    shellCall('c5', 'git status', 'success', 0),
    shellCall('c6', 'pnpm dev', 'pending'),
  ],
  {
    prompt: 'Implement the OAuth callback handler\nand its tests',
    lastAssistantMessage: 'The callback is implemented; one test still fails (401).\nNext: fix the token exchange.',
    cwd: '/work/repo',
  },
);
const data: HandoffData = {
  agent: 'claude',
  projectRoot: '/work/repo',
  sessionId: 'abc123',
  trigger: { kind: 'context', reading },
  timeline,
  git,
  failures: failuresFromObservations(
    [
      { kind: 'unresolved-error', text: 'Tests failed: verify the failing tests pass', callIds: ['c4'] },
      { kind: 'edit-without-read', text: 'not a failure', callIds: ['c3'] },
    ],
    timeline,
  ),
  planFile: 'PLAN.md',
  memoryFiles: ['CLAUDE.md', 'AGENTS.md'],
};

describe('renderHandoff', () => {
  it('renders the whole document deterministically', () => {
    const { stem, markdown } = renderHandoff(data, { now: NOW, timeZone: 'UTC' });
    expect(stem).toBe('2026-01-07-1145');
    expect(markdown).toBe(`---
session_date: 2026-01-07
session_time: "11:45"
timezone: UTC
agent: claude
session_id: abc123
branch: feature/ANV-123
head: d36b6b4a1e2f3c4d5e6f7a8b9c0d1e2f3a4b5c6d
checkpoint_trigger: L2 (context at 86%)
context_at_checkpoint: 86%
modified_files:
  - src/auth/oauth.ts
  - src/new.ts
  - notes.txt
  - src/renamed.ts
git_status: 1 modified, 1 added, 1 renamed, 1 untracked
---

# Session Handoff: Implement the OAuth callback handler …

## Checkpoint Reason

Context reached 86% of the 200,000-token window (L2; 172,000 tokens in use).

## Remaining Context Budget

Estimated 14% (~28,000 tokens) remained in the session's context window.

## What Was Done This Turn

Prompt: \`Implement the OAuth callback handler …\`

Commands:

- \`pnpm test\`: failed (exit 1)
- \`git status\`: ok (exit 0)
- \`pnpm dev\`: no result (still running or interrupted)

Files changed by tool calls:

- Edited: \`src/auth/oauth.ts\`
- Written: \`src/new.ts\`

## Files In Progress

Uncommitted changes (1 modified, 1 added, 1 renamed, 1 untracked):

- M \`src/auth/oauth.ts\`
- A \`src/new.ts\`
- ?? \`notes.txt\`
- R \`src/old.ts\` -> \`src/renamed.ts\`

Committed during the turn:

- M \`docs/done.md\`

## Failing Commands

- \`pnpm test\` (exit 1): Tests failed: verify the failing tests pass

  \`\`\`
  RUN v4
   FAIL src/auth/oauth.test.ts > callback
  AssertionError: expected 401 to be 200
   Tests 1 failed
  \`\`\`

## Next Steps

Continue the plan in \`PLAN.md\`.

The agent's last message:

> The callback is implemented; one test still fails (401).
> Next: fix the token exchange.

## Context To Reload

- \`CLAUDE.md\`: agent memory file (project instructions)
- \`AGENTS.md\`: agent memory file (project instructions)
- \`PLAN.md\`: plan
`);
  });

  it('produces front matter that reads back', () => {
    const fm = parseHandoffFrontMatter(renderHandoff(data, { now: NOW, timeZone: 'UTC' }).markdown);
    expect(fm).toMatchObject({
      session_date: '2026-01-07',
      session_time: '11:45',
      branch: 'feature/ANV-123',
      checkpoint_trigger: 'L2 (context at 86%)',
      context_at_checkpoint: '86%',
      modified_files: ['src/auth/oauth.ts', 'src/new.ts', 'notes.txt', 'src/renamed.ts'],
    });
  });

  it('uses the time zone for date, time and name', () => {
    expect(renderHandoff(data, { now: NOW, timeZone: 'Asia/Kolkata' }).stem).toBe('2026-01-07-1715');
    expect(renderHandoff(data, { now: new Date('2026-01-07T23:30:00Z'), timeZone: 'Asia/Tokyo' }).stem).toBe('2026-01-08-0830');
    expect(clockParts(new Date('2026-01-07T00:05:00Z'), 'UTC')).toEqual({ date: '2026-01-07', time: '00:05', stamp: '2026-01-07-0005', timeZone: 'UTC' });
    expect(clockParts(NOW, 'Not/AZone').timeZone).toBe('UTC');
  });

  it('degrades every section to a short line when data is missing', () => {
    const { markdown } = renderHandoff({ agent: 'codex', projectRoot: '/p', trigger: { kind: 'manual' } }, { now: NOW, timeZone: 'UTC' });
    expect(markdown).toContain('branch: (unknown)');
    expect(markdown).toContain('checkpoint_trigger: manual\n');
    expect(markdown).toContain('context_at_checkpoint: unknown');
    expect(markdown).toContain('modified_files: []');
    expect(markdown).toContain('git_status: unknown');
    expect(markdown).toContain('# Session Handoff: (unknown)');
    expect(markdown).toContain('## Checkpoint Reason\n\nCheckpoint requested.');
    expect(markdown).not.toContain('Remaining Context Budget');
    expect(markdown).toContain('No transcript data for this turn.');
    expect(markdown).toContain('Git status was not read.');
    expect(markdown).toContain('## Failing Commands\n\nNone unresolved.');
    expect(markdown).toContain('None recorded: re-read the prompt and the files in progress.');
    expect(markdown).toContain('No memory or plan file found.');
  });

  it('labels detached, unborn, non-repo and failed git states', () => {
    const render = (g: GitSnapshot) => renderHandoff({ agent: 'gemini', projectRoot: '/p', trigger: { kind: 'manual' }, git: g }, { now: NOW, timeZone: 'UTC' }).markdown;
    expect(render({ kind: 'repo', root: '/p', head: 'abcdef1234567', files: [] })).toContain('branch: (detached at abcdef1)');
    expect(render({ kind: 'repo', root: '/p', files: [] })).toContain('branch: (no commits yet)');
    expect(render({ kind: 'repo', root: '/p', branch: 'main', files: [] })).toContain('git_status: clean');
    expect(render({ kind: 'not-a-repo' })).toContain('git_status: not a git repository');
    expect(render({ kind: 'error', message: 'git timed out' })).toContain('Git status unavailable: git timed out');
  });

  it('describes pre-compact and manual triggers, and assumed windows', () => {
    const assumed = readContextLevel({ contextTokens: 150_000, model: 'claude-opus-5-5' }) as KnownContextReading;
    expect(triggerLabel({ kind: 'pre-compact', auto: true, reading: assumed })).toBe('pre-compact (context at 75%)');
    const { markdown } = renderHandoff(
      { agent: 'claude', projectRoot: '/p', trigger: { kind: 'pre-compact', auto: true, reading: assumed } },
      { now: NOW, timeZone: 'UTC' },
    );
    expect(markdown).toContain('The agent was about to compact its context (automatic). Context reached 75%');
    expect(markdown).toContain('It is an assumption; set context.windowTokens if it is wrong.');
    const manual = renderHandoff({ agent: 'claude', projectRoot: '/p', trigger: { kind: 'manual', reason: 'End of day.' } }, { now: NOW, timeZone: 'UTC' });
    expect(manual.markdown).toContain('## Checkpoint Reason\n\nEnd of day.');
  });

  it('bounds the command list and notes a truncated transcript', () => {
    const calls = Array.from({ length: 40 }, (_, i) => shellCall(`s${i}`, `echo ${i}`, 'success', 0));
    const { markdown } = renderHandoff(
      { agent: 'claude', projectRoot: '/p', trigger: { kind: 'manual' }, timeline: timelineOf(calls, { truncated: true }) },
      { now: NOW, timeZone: 'UTC' },
    );
    expect(markdown).toContain('- (15 earlier commands not listed)');
    expect(markdown).not.toContain('`echo 14`');
    expect(markdown).toContain('`echo 15`');
    expect(markdown).toContain('`echo 39`');
    expect(markdown).toContain('The transcript read was capped');
  });

  it('quotes awkward names in front matter and code spans', () => {
    const odd: GitSnapshot = {
      kind: 'repo',
      root: '/p',
      branch: 'main',
      files: [
        { path: 'a: b.ts', status: 'modified', source: 'worktree' },
        { path: '#hash "q".md', status: 'untracked', source: 'worktree' },
        { path: 'has`tick.ts', status: 'untracked', source: 'worktree' },
        { path: '123', status: 'untracked', source: 'worktree' },
      ],
    };
    const calls = [shellCall('x', 'echo `date` && printf "a\\nb"', 'success', 0)];
    const { markdown } = renderHandoff(
      { agent: 'claude', projectRoot: '/p', trigger: { kind: 'manual' }, git: odd, timeline: timelineOf(calls), nextSteps: ['Fix it\nsecond line'] },
      { now: NOW, timeZone: 'UTC' },
    );
    expect(parseHandoffFrontMatter(markdown)['modified_files']).toEqual(['a: b.ts', '#hash "q".md', 'has`tick.ts', '123']);
    expect(markdown).toContain('- ?? ``has`tick.ts``');
    expect(markdown).toContain('- ``echo `date` && printf "a\\nb"``: ok (exit 0)');
    expect(markdown).toContain('1. Fix it …');
  });
});

describe('markdown and YAML helpers', () => {
  it.each(['plain', 'L2 (context at 86%)', '86%', '11:45', 'true', 'No', '42', '1e3', '-x', ' lead', 'trail ', 'a#b', '"q"', 'multi\nline', ''])(
    'yamlScalar round-trips %j',
    (value) => {
      expect(parseYamlScalar(yamlScalar(value))).toBe(value);
    },
  );

  it('quotes what YAML would not read as a string', () => {
    expect(yamlScalar('11:45')).toBe('"11:45"');
    expect(yamlScalar('true')).toBe('"true"');
    expect(yamlScalar('42')).toBe('"42"');
    expect(yamlScalar('86%')).toBe('86%');
    expect(yamlScalar('.agent-checkpoint/handoffs/x.md')).toBe('.agent-checkpoint/handoffs/x.md');
  });

  it('builds code spans and fences that content cannot close', () => {
    expect(codeSpan('a')).toBe('`a`');
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
    expect(fencedBlock('```\ncode\n```')).toBe('````\n```\ncode\n```\n````');
  });
});

describe('failuresFromObservations', () => {
  it('looks up each failed call and keeps the last output lines', () => {
    const long = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const t = timelineOf([shellCall('a', 'make build', 'error', 2, long), fileCall('b', 'edit', ['src/x.ts'])]);
    expect(
      failuresFromObservations(
        [
          { kind: 'unresolved-error', text: 'Build failed', callIds: ['a', 'b', 'missing'] },
          { kind: 'unresolved-error', text: 'Gone', callIds: ['nope'] },
          { kind: 'blast-radius', text: 'ignored', callIds: ['a'] },
        ],
        t,
      ),
    ).toEqual([
      { text: 'Build failed', command: 'make build', exitCode: 2, outputTail: 'line 14\nline 15\nline 16\nline 17\nline 18\nline 19' },
      { text: 'Build failed', command: 'Edit src/x.ts' },
      { text: 'Gone' },
    ]);
  });
});
