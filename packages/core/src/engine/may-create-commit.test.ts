import { describe, expect, test } from 'vitest';
import { parseShellCommand } from '../shell/parse-shell-command.ts';
import type { ToolCall } from '../timeline/tool-call.ts';
import { edit, noTranscript, patch, read, shell, timeline, write } from './build-test-timeline.ts';
import { callMayCreateCommit, turnMayCreateCommit } from './may-create-commit.ts';

const mayCommit = (call: ToolCall): boolean => callMayCreateCommit(call, call.kind === 'shell' ? parseShellCommand(call.command) : []);
const other = (rawName: string): ToolCall => ({ ...read('/repo/x'), kind: 'other', rawName, paths: [] });
const turnMay = (calls: readonly ToolCall[], options: Parameters<typeof timeline>[1] = {}): boolean => {
  const t = timeline(calls, options);
  return turnMayCreateCommit(t, (i) => {
    const call = t.calls[i];
    return call?.kind === 'shell' ? parseShellCommand(call.command) : [];
  });
};

describe('callMayCreateCommit', () => {
  test.each([
    'git commit -am wip',
    'git -C . commit -m x',
    'git merge topic',
    'git rebase main',
    'git cherry-pick abc',
    'git am < p.patch',
    'git pull',
    'git revert HEAD',
    'git reset --hard HEAD~1',
    'git stash',
    'git ci -m x', // an alias: anything may hide behind it
    'git checkout main',
    'bash -lc "git commit -m x"',
    'env FOO=1 git commit -m x',
    'echo $(git commit -m x)',
    'echo `git commit -m x`',
    'make release',
    './scripts/ship.sh',
    'npm run release',
    'pytest',
    'python -c "import os; os.system(\'git commit -m x\')"',
    'find . -name "*.txt" -exec git add {} ;',
    'ls | xargs git commit -m x',
    "sed -n '1e git commit -m x' a.txt",
    '$GIT commit -m x',
  ])('may: %s', (command) => {
    expect(mayCommit(shell(command))).toBe(true);
  });

  test.each([
    'git status',
    'git diff --stat',
    'git log --oneline -5',
    'git -c color.ui=never show HEAD',
    'git add -A && git status',
    'git fetch origin',
    'cat a.txt | grep x',
    'ls -la && pwd',
    'rg -n todo src/',
    'find . -name "*.ts"',
    'FOO=1',
    'cd sub && ls',
    'mkdir -p out && cp a b',
  ])('cannot: %s', (command) => {
    expect(mayCommit(shell(command))).toBe(false);
  });

  test('a failed or still running shell call may still have committed', () => {
    expect(mayCommit(shell('git commit -m x && make test', { exitCode: 2 }))).toBe(true);
    expect(mayCommit(shell('git commit -m x', { outcome: 'pending' }))).toBe(true);
  });

  test('file tools never commit; unknown tools (MCP, subagent launchers) may; planning and web tools do not', () => {
    for (const call of [read('/repo/a'), edit('/repo/a'), write('/repo/a'), patch(['a'])]) expect(mayCommit(call)).toBe(false);
    for (const name of ['Task', 'Agent', 'mcp__git__git_commit', 'some_tool']) expect(mayCommit(other(name)), name).toBe(true);
    for (const name of ['TodoWrite', 'WebFetch', ' update_plan ', 'google_web_search']) expect(mayCommit(other(name)), name).toBe(false);
  });
});

describe('turnMayCreateCommit', () => {
  test('a complete transcript without such a call cannot; any such call, also a subagent\'s, can', () => {
    expect(turnMay([])).toBe(false);
    expect(turnMay([read('/repo/a'), edit('/repo/a'), shell('git status'), shell('cat a')])).toBe(false);
    expect(turnMay([read('/repo/a'), { ...shell('git commit -am x'), origin: { kind: 'subagent', agentId: 'a1' } }])).toBe(true);
  });

  test('a missing or truncated transcript may always hold one', () => {
    expect(turnMayCreateCommit(noTranscript(), () => [])).toBe(true);
    expect(turnMay([read('/repo/a')], { truncated: true })).toBe(true);
  });
});
