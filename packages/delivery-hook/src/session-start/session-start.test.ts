import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';
import { encodeSessionStart } from './encode-session-start.ts';

// `agent-checkpoint-hook session-start <agent>` as a real process: what each agent receives.

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

const HANDOFF = `---
session_date: 2026-01-07
session_time: "11:45"
agent: claude
branch: main
checkpoint_trigger: L2 (context at 86%)
modified_files:
  - src/app.ts
---

# Session Handoff: Implement the OAuth callback

## Next Steps

1. Finish the token exchange.
`;

/** A repository with handoffs enabled and one fresh handoff. */
function project(config: Record<string, unknown> = { handoff: { enabled: true } }, handoff: string | null = HANDOFF): { sb: HookSandbox; repo: string } {
  sandbox = createHookSandbox('ac-session-start-');
  const repo = join(sandbox.root, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: sandbox.env });
  writeFileSync(join(repo, '.agent-checkpoint.json'), JSON.stringify(config));
  if (handoff !== null) {
    mkdirSync(join(repo, '.agent-checkpoint', 'handoffs'), { recursive: true });
    writeFileSync(join(repo, '.agent-checkpoint', 'handoffs', '2026-01-07-1145.md'), handoff);
  }
  return { sb: sandbox, repo };
}

const payload = (agent: string, repo: string, sessionId = 'new-session', source = 'startup'): string =>
  JSON.stringify(
    agent === 'codex'
      ? { session_id: sessionId, transcript_path: null, cwd: repo, hook_event_name: 'SessionStart', model: 'gpt-5.5', permission_mode: 'bypassPermissions', source }
      : { session_id: sessionId, transcript_path: join(repo, '..', 't.jsonl'), cwd: repo, hook_event_name: 'SessionStart', source },
  );

describe('session-start', () => {
  it.each(['claude', 'gemini', 'codex'] as const)('%s: injects the newest handoff once, as SessionStart additionalContext', async (agent) => {
    const { sb, repo } = project();
    const first = await runHookBundle({ args: ['session-start', agent], stdin: payload(agent, repo), env: sb.env, cwd: repo });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    const output = JSON.parse(first.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(Object.keys(output)).toEqual(['hookSpecificOutput']);
    expect(Object.keys(output.hookSpecificOutput)).toEqual(['hookEventName', 'additionalContext']);
    expect(output.hookSpecificOutput.hookEventName).toBe('SessionStart');
    const context = output.hookSpecificOutput.additionalContext;
    expect(context).toMatch(/^The previous session ended with a context checkpoint \(L2 \(context at 86%\), 2026-01-07 11:45\)\. Read \.agent-checkpoint\/handoffs\/2026-01-07-1145\.md before continuing/);
    expect(context).toContain('# Session Handoff: Implement the OAuth callback');
    expect(context).toContain('1. Finish the token exchange.');
    expect(first.stdout).toBe(encodeSessionStart(agent, context));
    // Success metrics: the resume is recorded, joined to the handoff by its name.
    const [log] = readdirSync(join(sb.stateDir, 'metrics'));
    expect(JSON.parse(readFileSync(join(sb.stateDir, 'metrics', log ?? ''), 'utf8').trim())).toMatchObject({ type: 'resume', handoff: '2026-01-07-1145', consumed: true });
    // Once per handoff: a resumed or another session does not get it again.
    const again = await runHookBundle({ args: ['session-start', agent], stdin: payload(agent, repo, 'other', 'resume'), env: sb.env, cwd: repo });
    expect(again).toMatchObject({ code: 0, stdout: '' });
    expect(readdirSync(join(repo, '.agent-checkpoint', 'injected'))).toHaveLength(1);
  });

  it('nothing without handoff.enabled, without a handoff, or when switched off', async () => {
    const off = project({});
    expect(await runHookBundle({ args: ['session-start', 'claude'], stdin: payload('claude', off.repo), env: off.sb.env, cwd: off.repo })).toMatchObject({ code: 0, stdout: '' });
    sandbox?.remove();
    const none = project(undefined, null);
    expect(await runHookBundle({ args: ['session-start', 'claude'], stdin: payload('claude', none.repo), env: none.sb.env, cwd: none.repo })).toMatchObject({ code: 0, stdout: '' });
    sandbox?.remove();
    const switched = project();
    const result = await runHookBundle({
      args: ['session-start', 'claude'],
      stdin: payload('claude', switched.repo),
      env: { ...switched.sb.env, AGENT_CHECKPOINT_DISABLE: '1' },
      cwd: switched.repo,
    });
    expect(result).toMatchObject({ code: 0, stdout: '' });
  });

  it('bad input: exit 0, empty stdout, one line on stderr', async () => {
    const { sb, repo } = project();
    for (const [args, stdin] of [
      [['session-start', 'claude'], 'not json'],
      [['session-start', 'claude'], '[1,2]'],
      [['session-start', 'claude'], JSON.stringify({ session_id: 7 })],
      [['session-start', 'cursor'], payload('claude', repo)],
      [['session-start'], payload('claude', repo)],
    ] as const) {
      const result = await runHookBundle({ args, stdin, env: sb.env, cwd: repo });
      expect(result, JSON.stringify(args)).toMatchObject({ code: 0, stdout: '' });
      expect(result.stderr).toMatch(/^agent-checkpoint: /);
    }
    // Another event sent to this command: ignored quietly.
    const stop = await runHookBundle({ args: ['session-start', 'claude'], stdin: JSON.stringify({ hook_event_name: 'Stop', cwd: repo }), env: sb.env, cwd: repo });
    expect(stop).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});
