import path from 'node:path';
import type { PreparedSession, SessionOptions } from './harness/agent-session.ts';
import { HeadlessCliSession, type SettingsFile } from './harness/headless-cli-session.ts';

/**
 * Claude Code 2.1.330, headless (`-p`), against the mock. Per claude-cli.md §1–§2:
 * - `$HOME` isolated; `ANTHROPIC_BASE_URL` = the mock; nonessential traffic, telemetry, error
 *   reporting and the auto-updater off;
 * - `--permission-mode acceptEdits --allowedTools "Bash Edit Write Read"`: works as root, where
 *   `--dangerously-skip-permissions` is refused; the Agent tool needs no permission;
 * - the Stop hook in the project's `.claude/settings.json` (committed, so `git status` starts
 *   clean);
 * - the first prompt fixes the session id (`--session-id`), later prompts `--resume` it, which
 *   appends to the same transcript.
 */
export class ClaudeSession extends HeadlessCliSession {
  static start(options: SessionOptions): Promise<ClaudeSession> {
    return HeadlessCliSession.startWith(options, (prepared) => new ClaudeSession(prepared, options));
  }

  private constructor(prepared: PreparedSession, options: SessionOptions) {
    super('claude', prepared, options);
  }

  protected settingsFiles(): SettingsFile[] {
    if (!this.installsHook) return [];
    const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: this.probeCommand('hook', 'probe-hook.json'), timeout: 30 }] }] } };
    return [{ file: path.join(this.workspace.repo, '.claude', 'settings.json'), value: settings }];
  }

  protected agentEnv(): Record<string, string> {
    return {
      ANTHROPIC_BASE_URL: this.mock.url,
      ANTHROPIC_API_KEY: 'sk-ant-e2e-mock-0000000000000000000000',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
    };
  }

  protected promptFlags(): readonly string[] {
    return ['--output-format', 'stream-json', '--verbose', '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash Edit Write Read'];
  }

  /** `$HOME/.claude/projects/<cwd with non-alphanumerics as "-">/<session>.jsonl` (§3.1). */
  transcriptPaths(): string[] {
    const slug = this.workspace.repo.replace(/[^a-zA-Z0-9]/g, '-');
    return this.existingFiles(path.join(this.workspace.home, '.claude', 'projects', slug, `${this.sessionId}.jsonl`));
  }
}
