import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { terminalStyle } from '@agent-checkpoint/setup-kit';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { explainTurn } from './explain-turn.ts';
import { renderExplain } from './render-explain.ts';

// `explain` marks the calls a subagent made: the real Claude Code 2.1.330 recording of a foreground
// Agent call whose subagent ran `ls -a && false` in its own transcript (<session>/subagents/).

const FIXTURE = join(import.meta.dirname, '../../../../fixtures/claude/2.1.330/subagent-foreground.jsonl');

let sandbox: HookSandbox;
let repo: string;
beforeEach(() => {
  sandbox = createHookSandbox('ac-explain-subagent-');
  repo = join(sandbox.root, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: sandbox.env });
  writeFileSync(join(repo, 'README.md'), 'readme\n');
});
afterEach(() => sandbox.remove());

describe('explain with subagent calls', () => {
  it('--json carries the origin; the table marks the subagent call and counts it', async () => {
    const report = await explainTurn({ agent: 'claude', cwd: repo, env: sandbox.env, transcriptPath: FIXTURE });
    expect(report.calls.map((c) => [c.n, c.rawName, c.command ?? null, c.origin ?? null])).toEqual([
      [1, 'Agent', null, null],
      [2, 'Bash', 'ls -a && false', { kind: 'subagent', agentId: 'a20f94b6eebc13214', agentType: 'general-purpose', parentCallId: 'toolu_mock0e4476fe3b0610c0cc8b' }],
      [3, 'Bash', 'echo checkpoint-ok', null],
    ]);
    const text = renderExplain(report, terminalStyle(false));
    expect(text).toContain('3 tool calls (1 by subagents)');
    const lines = text.split('\n');
    expect(lines.find((line) => line.includes('ls -a && false'))).toMatch(/#2 .*ls -a && false {2}\[subagent general-purpose a20f94b6eebc13214\]$/);
    expect(lines.find((line) => line.includes('echo checkpoint-ok'))).not.toContain('[subagent');
  });
});
