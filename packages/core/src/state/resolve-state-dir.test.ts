import { describe, expect, it } from 'vitest';
import { resolveStateDir } from './resolve-state-dir.ts';

describe('resolveStateDir', () => {
  it('prefers AGENT_CHECKPOINT_STATE_DIR, then XDG_STATE_HOME, then ~/.local/state', () => {
    const homeDir = '/home/u';
    expect(resolveStateDir({ homeDir, env: { AGENT_CHECKPOINT_STATE_DIR: '/s', XDG_STATE_HOME: '/x' } })).toBe('/s');
    expect(resolveStateDir({ homeDir, env: { XDG_STATE_HOME: '/x' } })).toBe('/x/agent-checkpoint');
    expect(resolveStateDir({ homeDir, env: {} })).toBe('/home/u/.local/state/agent-checkpoint');
  });

  it('ignores empty and relative values (a hook runs in the session cwd)', () => {
    const homeDir = '/home/u';
    expect(resolveStateDir({ homeDir, env: { AGENT_CHECKPOINT_STATE_DIR: '', XDG_STATE_HOME: '' } })).toBe('/home/u/.local/state/agent-checkpoint');
    expect(resolveStateDir({ homeDir, env: { AGENT_CHECKPOINT_STATE_DIR: 'state', XDG_STATE_HOME: 'rel' } })).toBe(
      '/home/u/.local/state/agent-checkpoint',
    );
  });
});
