import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { defaultCliCacheRoot } from './harness/agent-cli-install.ts';
import type { PreparedSession, SessionOptions } from './harness/agent-session.ts';
import { HeadlessCliSession, type SettingsFile } from './harness/headless-cli-session.ts';

/**
 * The model name Copilot CLI is told to use. A Claude model name gets the `view`/`create`/`edit`
 * file tools the mock scripts (a GPT name gets a freeform `apply_patch` instead).
 */
export const COPILOT_MODEL = 'claude-sonnet-4.5';

/**
 * GitHub Copilot CLI 1.0.102, headless (`-p`), against the mock's chat completions. Per
 * copilot-cli.md:
 * - `$HOME` isolated; `COPILOT_PROVIDER_BASE_URL` = the mock's `/v1`, `COPILOT_PROVIDER_API_KEY`,
 *   `COPILOT_MODEL` (no GitHub login); `--allow-all-tools`;
 * - the native binary unpacks ~235 MB of JavaScript under `$XDG_CACHE_HOME/copilot/pkg` on first
 *   start: every session shares one unpacked copy beside the pinned install's cache;
 * - the `agentStop` hook in the user's `~/.copilot/settings.json` (runs without folder trust);
 * - the first prompt fixes the session id (`--session-id`), later prompts pass it again to resume.
 */
export class CopilotSession extends HeadlessCliSession {
  static start(options: SessionOptions): Promise<CopilotSession> {
    return HeadlessCliSession.startWith(options, (prepared) => new CopilotSession(prepared, options));
  }

  private constructor(prepared: PreparedSession, options: SessionOptions) {
    super('copilot', prepared, options);
  }

  protected settingsFiles(): SettingsFile[] {
    const hooks = this.installsHook ? { hooks: { agentStop: [{ type: 'command', bash: this.probeCommand('hook', 'probe-hook.json'), timeoutSec: 30 }] } } : {};
    return [{ file: path.join(this.workspace.home, '.copilot', 'settings.json'), value: hooks }];
  }

  protected agentEnv(): Record<string, string> {
    return {
      XDG_CACHE_HOME: copilotUnpackCache(),
      COPILOT_PROVIDER_BASE_URL: `${this.mock.url}/v1`,
      COPILOT_PROVIDER_API_KEY: 'e2e-mock-copilot-key',
      COPILOT_MODEL,
    };
  }

  protected promptFlags(): readonly string[] {
    return ['--allow-all-tools'];
  }

  /** Every prompt passes the same `--session-id`: the first fixes it, later ones continue that session. */
  protected override sessionArgs(): string[] {
    return ['--session-id', this.sessionId];
  }

  /** `$HOME/.copilot/session-state/<session id>/events.jsonl`. */
  transcriptPaths(): string[] {
    return this.existingFiles(path.join(this.workspace.home, '.copilot', 'session-state', this.sessionId, 'events.jsonl'));
  }
}

/** The `XDG_CACHE_HOME` every Copilot session shares: its unpacked JavaScript lives under `copilot/pkg/`. */
export function copilotUnpackCache(): string {
  const dir = path.join(defaultCliCacheRoot(), 'copilot-xdg-cache');
  mkdirSync(dir, { recursive: true });
  return dir;
}
