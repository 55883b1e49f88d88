import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { say } from '../mock/scenario.ts';
import { ClaudeSession } from '../run-claude.ts';
import { CodexSession } from '../run-codex.ts';
import { CopilotSession } from '../run-copilot.ts';
import { GeminiSession } from '../run-gemini.ts';
import { QwenSession } from '../run-qwen.ts';
import { PROBE_HOOK_PATH } from './agent-clis.ts';
import type { AgentSession, SessionOptions } from './agent-session.ts';
import { withCheckedSession } from './define-headless-agent-tests.ts';

/**
 * Session options that install something other than the default probe: extra env (a function of
 * the workspace), no hook at all, and a chained Codex notify program. Only the set-up is checked
 * here (no CLI starts); the route tests run them for real.
 */

const scenario = { name: 'options', steps: [say('unused')] };
const stateEnv = (workspace: { root: string }) => ({ AGENT_CHECKPOINT_STATE_DIR: path.join(workspace.root, 'state') });

describe('session options', () => {
  it('adds env computed from the workspace on top of the isolated env (every runner)', async () => {
    const starts: ((options: SessionOptions) => Promise<AgentSession>)[] = [ClaudeSession.start, GeminiSession.start, CodexSession.start, CopilotSession.start, QwenSession.start];
    for (const start of starts) {
      await withCheckedSession(start({ scenario, env: stateEnv }), async (session) => {
        const env = session.env();
        expect(env['AGENT_CHECKPOINT_STATE_DIR']).toBe(path.join(session.workspace.root, 'state'));
        expect(env['HOME']).toBe(session.workspace.home);
      });
    }
  });

  it('installs no hook with kind "none"', async () => {
    await withCheckedSession(ClaudeSession.start({ scenario, hook: { kind: 'none' } }), async (session) => {
      expect(existsSync(path.join(session.workspace.repo, '.claude', 'settings.json'))).toBe(false);
    });
    await withCheckedSession(GeminiSession.start({ scenario, hook: { kind: 'none' } }), async (session) => {
      expect(existsSync(path.join(session.workspace.repo, '.gemini', 'settings.json'))).toBe(false);
    });
    await withCheckedSession(CodexSession.start({ scenario, hook: { kind: 'none' } }), async (session) => {
      expect(existsSync(path.join(session.codexHome, 'hooks.json'))).toBe(false);
    });
    await withCheckedSession(QwenSession.start({ scenario, hook: { kind: 'none' } }), async (session) => {
      expect(existsSync(path.join(session.workspace.repo, '.qwen', 'settings.json'))).toBe(false);
      expect(existsSync(path.join(session.workspace.home, '.qwen', 'settings.json'))).toBe(true);
    });
    await withCheckedSession(CopilotSession.start({ scenario, hook: { kind: 'none' } }), async (session) => {
      expect(JSON.parse(readFileSync(path.join(session.workspace.home, '.copilot', 'settings.json'), 'utf8'))).toEqual({});
    });
  });

  it('a runner that cannot start (the pinned CLIs not installed) rejects and leaves no temp workspace behind', async () => {
    const saved = { cache: process.env['AGENT_CHECKPOINT_E2E_CLI_CACHE'], tmp: process.env['TMPDIR'] };
    // os.tmpdir() follows TMPDIR: every workspace a start makes lands here, where nothing else writes.
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'e2e-start-fails-'));
    try {
      process.env['AGENT_CHECKPOINT_E2E_CLI_CACHE'] = path.join(tmp, 'no-clis');
      process.env['TMPDIR'] = tmp;
      const starts: ((options: SessionOptions) => Promise<AgentSession>)[] = [ClaudeSession.start, GeminiSession.start, CodexSession.start, CopilotSession.start, QwenSession.start];
      for (const start of starts) {
        await expect(start({ scenario })).rejects.toThrow(/pinned agent CLIs are not installed/);
        expect(readdirSync(tmp).filter((name) => name.startsWith('ac-e2e-'))).toEqual([]);
      }
    } finally {
      for (const [key, value] of [['AGENT_CHECKPOINT_E2E_CLI_CACHE', saved.cache], ['TMPDIR', saved.tmp]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('chains the probe after a Codex notify program, with the argv contract of agent-checkpoint-tmux', async () => {
    await withCheckedSession(CodexSession.start({ scenario, notifyChain: ['node', '/abs/notify.mjs'] }), async (session) => {
      const config = readFileSync(path.join(session.codexHome, 'config.toml'), 'utf8');
      const probe = ['node', PROBE_HOOK_PATH, 'notify', path.join(session.workspace.logs, 'probe-notify.json')];
      expect(config).toContain(`notify = ${JSON.stringify(['node', '/abs/notify.mjs', '--', ...probe]).replaceAll('","', '", "')}\n`);
      expect(existsSync(path.join(session.codexHome, 'hooks.json'))).toBe(true);
    });
  });
});
