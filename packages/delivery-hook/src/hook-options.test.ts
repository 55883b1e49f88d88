import { describe, expect, it } from 'vitest';
import { DEFAULT_DEADLINE_MS, DEFAULT_STDIN_TIMEOUT_MS, readHookOptions } from './hook-options.ts';

describe('readHookOptions', () => {
  it('has defaults', () => {
    expect(readHookOptions({}, [])).toMatchObject({ deadlineMs: DEFAULT_DEADLINE_MS, stdinTimeoutMs: DEFAULT_STDIN_TIMEOUT_MS, debug: false });
  });

  it('reads the environment and --debug, clamping to sane bounds', () => {
    expect(readHookOptions({ AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '2500', AGENT_CHECKPOINT_STDIN_TIMEOUT_MS: '100' }, [])).toMatchObject({
      deadlineMs: 2500,
      stdinTimeoutMs: 100,
    });
    expect(readHookOptions({ AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '1' }, []).deadlineMs).toBe(100);
    expect(readHookOptions({ AGENT_CHECKPOINT_DEBUG: 'true' }, []).debug).toBe(true);
    expect(readHookOptions({}, ['--debug']).debug).toBe(true);
  });

  it('ignores malformed numbers', () => {
    for (const raw of ['', 'abc', '-5', '1e3', '12ms']) {
      expect(readHookOptions({ AGENT_CHECKPOINT_HOOK_DEADLINE_MS: raw }, []).deadlineMs).toBe(DEFAULT_DEADLINE_MS);
    }
  });
});
