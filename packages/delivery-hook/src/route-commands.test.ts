import { describe, expect, it } from 'vitest';
import { agentToolCommandOf, installRouteOf, userCommandsOf } from './route-commands.ts';

// Every message that names a command names one that works on the route that produced it: the hook
// knows its route from the variables its agent sets for a plugin's hooks (or that our extension sets).

describe('installRouteOf', () => {
  it('each agent\'s own plugin variable, absolute; anything else is a settings install', () => {
    expect(installRouteOf('claude', { CLAUDE_PLUGIN_ROOT: '/c/plugin' })).toEqual({ kind: 'claude-plugin', pluginRoot: '/c/plugin' });
    expect(installRouteOf('codex', { PLUGIN_ROOT: '/x/plugin' })).toEqual({ kind: 'codex-plugin', pluginRoot: '/x/plugin' });
    expect(installRouteOf('gemini', { AGENT_CHECKPOINT_EXTENSION_PATH: '/g/ext' })).toEqual({ kind: 'gemini-extension', pluginRoot: '/g/ext/plugins/agent-checkpoint' });
    expect(installRouteOf('claude', {})).toEqual({ kind: 'settings' });
    // Another agent's variable (a CLI started from inside another agent's plugin hook) is not ours.
    expect(installRouteOf('gemini', { CLAUDE_PLUGIN_ROOT: '/c/plugin', PLUGIN_ROOT: '/x' })).toEqual({ kind: 'settings' });
    expect(installRouteOf('codex', { PLUGIN_ROOT: 'relative/dir' })).toEqual({ kind: 'settings' });
    expect(installRouteOf('claude', { CLAUDE_PLUGIN_ROOT: '' })).toEqual({ kind: 'settings' });
  });
});

describe('userCommandsOf', () => {
  it('settings: the CLI on the PATH', () => {
    expect(userCommandsOf({ kind: 'settings' })).toEqual({
      offSession: 'agent-checkpoint-hook off --session {sessionId}',
      doctor: 'agent-checkpoint-hook doctor',
      trust: 'agent-checkpoint-hook trust',
      agentCheckpoint: 'agent-checkpoint-hook checkpoint',
    });
  });

  it('Claude plugin: its slash commands; trust through the plugin bin by absolute path', () => {
    expect(userCommandsOf({ kind: 'claude-plugin', pluginRoot: '/h/.claude/plugins/cache/a/agent-checkpoint/0.1.0' })).toEqual({
      offSession: '/agent-checkpoint:checkpoint-off --session {sessionId}',
      doctor: '/agent-checkpoint:checkpoint-doctor',
      trust: '/h/.claude/plugins/cache/a/agent-checkpoint/0.1.0/bin/agent-checkpoint-hook trust',
      // Claude Code's Bash tool has the plugin's bin/ on its PATH.
      agentCheckpoint: 'agent-checkpoint-hook checkpoint',
    });
  });

  it('Gemini extension: its TOML commands', () => {
    const c = userCommandsOf({ kind: 'gemini-extension', pluginRoot: '/h/.gemini/extensions/agent-checkpoint/plugins/agent-checkpoint' });
    expect(c.offSession).toBe('/checkpoint-off --session {sessionId}');
    expect(c.doctor).toBe('/checkpoint-doctor');
  });

  it('Codex plugin: the plugin bin by absolute path, one shell word whatever the path holds', () => {
    const c = userCommandsOf({ kind: 'codex-plugin', pluginRoot: "/h/it's $(x)/plugin" });
    expect(c.doctor).toBe("'/h/it'\\''s $(x)/plugin/bin/agent-checkpoint-hook' doctor");
    expect(c.offSession).toBe("'/h/it'\\''s $(x)/plugin/bin/agent-checkpoint-hook' off --session {sessionId}");
  });
});

describe('agentToolCommandOf: the bin as the agent runs it with its own shell tool', () => {
  it('on the PATH for a settings install and in Claude Code\'s Bash tool; node on the quoted bundle elsewhere', () => {
    expect(agentToolCommandOf({ kind: 'settings' })).toBe('agent-checkpoint-hook');
    expect(agentToolCommandOf({ kind: 'claude-plugin', pluginRoot: '/h/.claude/plugins/x' })).toBe('agent-checkpoint-hook');
    // Claude Code drops a plugin bin path with shell metacharacters from the PATH.
    expect(agentToolCommandOf({ kind: 'claude-plugin', pluginRoot: "/h/it's/x" })).toBe("node '/h/it'\\''s/x/dist/agent-checkpoint-hook.cjs'");
    expect(agentToolCommandOf({ kind: 'gemini-extension', pluginRoot: '/h/.gemini/extensions/agent-checkpoint/plugins/agent-checkpoint' })).toBe(
      'node /h/.gemini/extensions/agent-checkpoint/plugins/agent-checkpoint/dist/agent-checkpoint-hook.cjs',
    );
    expect(agentToolCommandOf({ kind: 'codex-plugin', pluginRoot: '/h/a b' })).toBe("node '/h/a b/dist/agent-checkpoint-hook.cjs'");
  });
});
