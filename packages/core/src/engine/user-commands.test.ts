import { describe, expect, it } from 'vitest';
import type { LoadedConfig } from '../config/load-config.ts';
import { resolveConfig } from '../config/resolve-config.ts';
import { configNotices, transcriptUnreadableNotice } from '../turn-end/turn-end-notice.ts';
import { renderEscapeHatch } from './compose-message.ts';
import { CLI_USER_COMMANDS, type UserCommands } from './user-commands.ts';

// Core names the commands a person runs only through values the route passes in: the default texts
// name the CLI on the PATH, a plugin route's commands replace them everywhere a person is told to run one.

const PLUGIN: UserCommands = { offSession: '/agent-checkpoint:checkpoint-off --session {sessionId}', doctor: '/agent-checkpoint:checkpoint-doctor', trust: "'/p q/bin/agent-checkpoint-hook' trust", agentCheckpoint: "node '/p q/dist/agent-checkpoint-hook.cjs' checkpoint" };
const hatch = resolveConfig([]).messages.escapeHatch;

describe('the escape hatch names the route\'s off command for a person', () => {
  it('default: the CLI; a route: its own command, with the session id as one word', () => {
    expect(renderEscapeHatch(hatch, 'abc-1', '/state/switches/session-abc-1.off')).toContain('(a person can run `agent-checkpoint-hook off --session abc-1`)');
    const routed = renderEscapeHatch(hatch, 'abc-1', '/state/switches/session-abc-1.off', PLUGIN);
    expect(routed).toContain('(a person can run `/agent-checkpoint:checkpoint-off --session abc-1`)');
    expect(routed).not.toContain('agent-checkpoint-hook off');
    // The agent's own command stays the off file, which works on every route.
    expect(routed).toContain("`mkdir -p '/state/switches' && touch '/state/switches/session-abc-1.off'`");
    expect(renderEscapeHatch('{personOffCommand}', "it's $(x)", undefined, PLUGIN)).toBe("/agent-checkpoint:checkpoint-off --session 'it'\\''s $(x)'");
  });

  it('without an off file, {offCommand} falls back to the route\'s command too', () => {
    expect(renderEscapeHatch('{offCommand}', 's1', undefined, PLUGIN)).toBe('/agent-checkpoint:checkpoint-off --session s1');
    expect(renderEscapeHatch('{offCommand}', 's1')).toBe('agent-checkpoint-hook off --session s1');
  });
});

describe('the notices name the route\'s doctor and trust', () => {
  const loaded = (diagnostics: string[], untrusted?: LoadedConfig['untrusted']): LoadedConfig => ({ config: resolveConfig([]), diagnostics, projectRoot: '/repo', ...(untrusted === undefined ? {} : { untrusted }) });

  it('config problem and untrusted keys', () => {
    const diagnostic = '/repo/.agent-checkpoint.json: not trusted';
    const notices = configNotices(loaded(['/repo/x.json: broken', diagnostic], { path: '/repo/.agent-checkpoint.json', ignoredKeys: ['runTests.command'], state: 'untrusted', diagnostic }), PLUGIN);
    expect(notices.map((n) => n.text)).toEqual([
      expect.stringContaining('`/agent-checkpoint:checkpoint-doctor` lists every problem'),
      expect.stringContaining("run `'/p q/bin/agent-checkpoint-hook' trust` in this project"),
    ]);
    expect(configNotices(loaded(['/repo/x.json: broken']))[0]!.text).toContain('`agent-checkpoint-hook doctor`');
  });

  it('transcript notices', () => {
    expect(transcriptUnreadableNotice('gone', PLUGIN).text).toContain('`/agent-checkpoint:checkpoint-doctor` checks the setup');
    expect(transcriptUnreadableNotice('gone').text).toContain(`\`${CLI_USER_COMMANDS.doctor}\``);
  });
});
