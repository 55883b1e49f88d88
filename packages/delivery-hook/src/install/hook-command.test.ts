import { describe, expect, it } from 'vitest';
import { shellCommand } from '@agent-checkpoint/setup-kit';
import { hookCommandLine, isOurHookCommandForm, mentionsOurHook } from './hook-command.ts';

// Which hook commands are ours: exactly what install writes, never a command that merely mentions us.

const ARGS = [['claude'], ['session-start', 'claude']];

describe('isOurHookCommandForm', () => {
  it('accepts what install writes, for any absolute paths (spaces, quotes, the older .mjs bin)', () => {
    for (const [node, bundle] of [
      ['/usr/bin/node', '/opt/lib/agent-checkpoint-hook.cjs'],
      ['/home/me/.nvm/versions/node/v22.1.0/bin/node', "/home/me/it's here/dist/agent-checkpoint-hook.cjs"],
      ['/usr/local/bin/node', '/old place/agent-checkpoint-hook.mjs'],
    ] as const) {
      for (const args of ARGS) {
        const command = hookCommandLine({ node, bundle }, { event: 'Stop', args, name: 'x', timeoutSeconds: 30 });
        expect(isOurHookCommandForm(command, ARGS), command).toBe(true);
      }
    }
  });

  it('refuses everything else, even when it runs or mentions the hook', () => {
    const ours = shellCommand(['/usr/bin/node', '/opt/lib/agent-checkpoint-hook.cjs', 'claude']);
    for (const command of [
      'npx agent-checkpoint-hook claude',
      'agent-checkpoint-hook claude',
      'node /opt/lib/agent-checkpoint-hook.cjs claude',
      `/home/me/bin/wrap.sh ${ours}`,
      `time ${ours}`,
      `${ours} --debug`,
      `${ours} 2>/dev/null`,
      `${ours}; notify-send done`,
      `${ours} `,
      ours.replace(' ', '  '),
      "'/usr/bin/node' /opt/lib/agent-checkpoint-hook.cjs claude", // quoted where install would not quote
      '/usr/bin/node /opt/lib/agent-checkpoint-hook-main.cjs claude',
      '/usr/bin/node lib/agent-checkpoint-hook.cjs claude',
      '/usr/bin/node /opt/lib/agent-checkpoint-hook.cjs gemini', // not an entry of this event
      'echo "agent-checkpoint-hook finished"',
    ]) {
      expect(isOurHookCommandForm(command, ARGS), command).toBe(false);
    }
    expect(isOurHookCommandForm(42, ARGS)).toBe(false);
  });

  it('mentionsOurHook finds the mentions install and doctor report (never used to edit)', () => {
    expect(mentionsOurHook('npx agent-checkpoint-hook claude')).toBe(true);
    expect(mentionsOurHook("notify-send 'agent-checkpoint-hook ran'")).toBe(true);
    expect(mentionsOurHook('~/bin/guard.sh')).toBe(false);
  });
});
