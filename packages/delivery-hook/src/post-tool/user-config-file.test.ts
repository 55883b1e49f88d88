import { userConfigPath } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { userConfigFile } from './user-config-file.ts';

describe('userConfigFile', () => {
  it.each([
    { AGENT_CHECKPOINT_CONFIG: '/etc/x.json', HOME: '/h' },
    { AGENT_CHECKPOINT_CONFIG: 'rel/x.json', HOME: '/h' },
    { XDG_CONFIG_HOME: '/xdg', HOME: '/h' },
    { XDG_CONFIG_HOME: 'relative', HOME: '/h' },
    { HOME: '/h' },
    { AGENT_CHECKPOINT_CONFIG: '', XDG_CONFIG_HOME: '', HOME: '/h' },
  ])('finds the file core finds: %o', (env) => {
    expect(userConfigFile(env)).toBe(userConfigPath(env, undefined).path);
  });
});
