import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from './test-support/hook-sandbox.ts';
import { runHookBundle } from './test-support/run-hook-bundle.ts';

// The management subcommands of the bin: off / on / status / help / version.

let sandbox: HookSandbox;
beforeEach(() => {
  sandbox = createHookSandbox();
});
afterEach(() => {
  sandbox.remove();
});

const run = (...args: string[]) => runHookBundle({ args, env: sandbox.env });

describe('off / on', () => {
  it('turns one session off and on, with a user-only switch file', async () => {
    const off = await run('off', '--session', 'abc-123');
    expect(off).toMatchObject({ code: 0, stdout: 'Checkpoints off for session abc-123.\n' });
    const path = join(sandbox.stateDir, 'switches', 'session-abc-123.off');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(sandbox.stateDir, 'switches')).mode & 0o777).toBe(0o700);

    const status = await run('status', '--session', 'abc-123');
    expect(status.stdout).toContain('session abc-123: off');

    const on = await run('on', '--session', 'abc-123');
    expect(on).toMatchObject({ code: 0, stdout: 'Checkpoints on for session abc-123.\n' });
    expect(existsSync(path)).toBe(false);
    expect((await run('status', '--session', 'abc-123')).stdout).toContain('session abc-123: on');
  });

  it('turns every session off and on with --all', async () => {
    expect((await run('off', '--all')).stdout).toBe('Checkpoints off for all sessions.\n');
    const status = JSON.parse((await run('status', '--json')).stdout) as { all: { off: boolean } };
    expect(status.all.off).toBe(true);
    expect((await run('on', '--all')).stdout).toBe('Checkpoints on for all sessions.\n');
    expect((JSON.parse((await run('status', '--json')).stdout) as { all: { off: boolean } }).all.off).toBe(false);
  });

  it('warns that the env switch still wins when turning on', async () => {
    const result = await runHookBundle({ args: ['on', '--all'], env: { ...sandbox.env, AGENT_CHECKPOINT_DISABLE: '1' } });
    expect(result.stdout).toContain('AGENT_CHECKPOINT_DISABLE is set');
  });

  it('keeps hostile session ids inside the state directory', async () => {
    expect((await run('off', '--session', '../../../escape')).code).toBe(0);
    expect(existsSync(join(sandbox.root, 'escape.off'))).toBe(false);
    expect((await run('status', '--session', '../../../escape')).stdout).toContain('session ../../../escape: off');
  });

  it.each([[['off']], [['off', '--session', 'a', '--all']], [['on', '--session']], [['off', '--session', '']], [['status', '--bogus']], [['on', 'extra']]])(
    'usage error %j → exit 2 with usage on stderr, nothing on stdout',
    async (args) => {
      const result = await run(...args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('Usage:');
    },
  );
});

describe('status', () => {
  it('reports the state directory and switches, as text and JSON', async () => {
    const text = await run('status');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`state directory: ${sandbox.stateDir}`);
    expect(text.stdout).toContain('AGENT_CHECKPOINT_DISABLE: not set');
    expect(text.stdout).toContain('all sessions: on');
    const json = JSON.parse((await run('status', '--json', '--session', 's1')).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ stateDir: sandbox.stateDir, all: { off: false }, session: { id: 's1', off: false, states: [] } });
  });

  it('uses XDG_STATE_HOME when AGENT_CHECKPOINT_STATE_DIR is not set', async () => {
    const env = { ...sandbox.env };
    delete (env as Record<string, string | undefined>)['AGENT_CHECKPOINT_STATE_DIR'];
    const result = await runHookBundle({ args: ['status'], env });
    expect(result.stdout).toContain(`state directory: ${join(sandbox.home, '.local', 'state', 'agent-checkpoint')}`);
  });
});

describe('help and version', () => {
  it('prints usage and the version', async () => {
    expect((await run('--help')).stdout).toContain('agent-checkpoint-hook <claude|gemini|codex|copilot|qwen|pi>');
    expect((await run('version')).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
