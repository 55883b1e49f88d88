import { describe, expect, test } from 'vitest';
import { parseShellCommand } from '../shell/parse-shell-command.ts';
import type { ToolCall } from '../timeline/tool-call.ts';
import { edit, noTranscript, patch, read, shell, timeline, write } from './build-test-timeline.ts';
import { callMayCreateCommit, turnMayCreateCommit } from './may-create-commit.ts';

const mayCommit = (call: ToolCall): boolean => callMayCreateCommit(call, call.kind === 'shell' ? parseShellCommand(call.command) : []);
/** A non-file call of `kind`; `rawName` is opaque to core (readers decide kinds). */
const call = (kind: 'web' | 'plan' | 'other', rawName = 'some_tool'): ToolCall => ({ ...read('/repo/x'), kind, rawName, paths: [] });
const turnMay = (calls: readonly ToolCall[], options: Parameters<typeof timeline>[1] = {}): boolean => {
  const t = timeline(calls, options);
  return turnMayCreateCommit(t, (i) => {
    const call = t.calls[i];
    return call?.kind === 'shell' ? parseShellCommand(call.command) : [];
  });
};

describe('PowerShell commands (a PowerShell tool call)', () => {
  const ps = (command: string): boolean => callMayCreateCommit({ ...shell(command), rawName: 'PowerShell', dialect: 'powershell' }, parseShellCommand(command, 'powershell'));

  test('reading, printing and file cmdlets cannot commit, in any case; a script block, a program or git commit may', () => {
    expect(ps('Get-ChildItem -Recurse src | Select-String TODO | Select-Object -First 5')).toBe(false);
    expect(ps('set-location C:\\repo\\web; get-content package.json; Test-Path dist')).toBe(false);
    expect(ps("Set-Content -Path notes.txt -Value 'x'; Remove-Item -Recurse .\\dist; git status")).toBe(false);
    // A script block, a program or a git commit still may.
    expect(ps('Get-ChildItem | Where-Object { git commit -am x }')).toBe(true);
    expect(ps('Get-ChildItem | Select-Object @{ n = "x"; e = { & git commit -am x } }')).toBe(true);
    expect(ps('npm test; if ($LASTEXITCODE -ne 0) { exit 1 }')).toBe(true);
    expect(ps('git commit -am wip')).toBe(true);
  });
});

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

  test('file, search, web and plan tools never commit; other tools (MCP, subagent launchers, unknown) may', () => {
    for (const c of [read('/repo/a'), edit('/repo/a'), write('/repo/a'), patch(['a'])]) expect(mayCommit(c)).toBe(false);
    expect(mayCommit({ ...read('/repo/a'), kind: 'search', paths: [] })).toBe(false);
    expect(mayCommit(call('web'))).toBe(false);
    expect(mayCommit(call('plan'))).toBe(false);
    // A failed or unanswered planning/web call is still no commit.
    expect(mayCommit({ ...call('plan'), outcome: 'error' })).toBe(false);
    expect(mayCommit({ ...call('web'), outcome: 'pending' })).toBe(false);
    expect(mayCommit(call('other'))).toBe(true);
    expect(mayCommit({ ...call('other'), outcome: 'error' })).toBe(true);
  });

  test('the decision is the kind\'s alone: the native name of an other call changes nothing', () => {
    // Whatever a reader could not classify stays conservative, even under a name that sounds inert.
    for (const name of ['Agent', 'mcp__git__git_commit', 'TodoWrite', 'WebFetch', 'update_plan', 'web_search']) {
      expect(mayCommit(call('other', name)), name).toBe(true);
    }
    // A web or plan call is inert whatever it is called, including names that sound like a commit.
    for (const name of ['mcp__git__git_commit', 'git_commit']) {
      expect(mayCommit(call('web', name)), name).toBe(false);
      expect(mayCommit(call('plan', name)), name).toBe(false);
    }
  });
});

describe('turnMayCreateCommit', () => {
  test('a complete transcript without such a call cannot; any such call, also a subagent\'s, can', () => {
    expect(turnMay([])).toBe(false);
    expect(turnMay([read('/repo/a'), edit('/repo/a'), shell('git status'), shell('cat a')])).toBe(false);
    expect(turnMay([call('plan'), call('web'), edit('/repo/a'), call('plan')])).toBe(false);
    expect(turnMay([call('plan'), call('other')])).toBe(true);
    expect(turnMay([read('/repo/a'), { ...shell('git commit -am x'), origin: { kind: 'subagent', agentId: 'a1' } }])).toBe(true);
  });

  test('a missing or truncated transcript may always hold one', () => {
    expect(turnMayCreateCommit(noTranscript(), () => [])).toBe(true);
    expect(turnMay([read('/repo/a')], { truncated: true })).toBe(true);
  });
});
