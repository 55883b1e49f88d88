import path from 'node:path';
import type { PreparedSession, SessionOptions } from './harness/agent-session.ts';
import { HeadlessCliSession, type SettingsFile } from './harness/headless-cli-session.ts';

/** The model passed with `-m`: naming one skips Gemini's "auto" router side request. */
export const GEMINI_MODEL = 'gemini-2.5-flash';

/**
 * Gemini CLI 0.61.0, headless (`-p`), against the mock. Per gemini-cli.md §1–§2:
 * - user settings select API-key auth (env vars alone resolve to "gateway", which `-p` rejects
 *   with exit 41), turn folder trust off (exit 55 otherwise, and project hooks would be ignored),
 *   and switch off telemetry, usage statistics, auto-update and the IDE integration;
 * - `GOOGLE_GEMINI_BASE_URL` = the mock (plain HTTP is accepted for loopback only);
 * - the AfterAgent hook in the project's `.gemini/settings.json` (committed);
 * - `--approval-mode yolo`, `-m gemini-2.5-flash`, `--output-format stream-json`;
 * - the first prompt fixes the session id (`--session-id`), later prompts `--resume` it;
 * - the CLI relaunches itself as a child `node`, so the whole process group is the unit to kill.
 */
export class GeminiSession extends HeadlessCliSession {
  static start(options: SessionOptions): Promise<GeminiSession> {
    return HeadlessCliSession.startWith(options, (prepared) => new GeminiSession(prepared, options));
  }

  private constructor(prepared: PreparedSession, options: SessionOptions) {
    super('gemini', prepared, options);
  }

  protected settingsFiles(): SettingsFile[] {
    const userSettings = {
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      telemetry: { enabled: false },
      privacy: { usageStatisticsEnabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      ide: { enabled: false },
      ui: { hideBanner: true, hideTips: true },
    };
    const projectSettings = {
      hooks: {
        AfterAgent: [
          { matcher: '*', hooks: [{ name: 'e2e-probe', type: 'command', command: this.probeCommand('hook', 'probe-hook.json'), timeout: 30_000 }] },
        ],
      },
    };
    return [
      { file: path.join(this.workspace.home, '.gemini', 'settings.json'), value: userSettings },
      ...(this.installsHook ? [{ file: path.join(this.workspace.repo, '.gemini', 'settings.json'), value: projectSettings }] : []),
    ];
  }

  protected agentEnv(): Record<string, string> {
    return { GOOGLE_GEMINI_BASE_URL: this.mock.url, GEMINI_API_KEY: 'e2e-mock-gemini-key' };
  }

  protected promptFlags(): readonly string[] {
    return ['-m', GEMINI_MODEL, '--approval-mode', 'yolo', '--output-format', 'stream-json'];
  }

  /**
   * `$HOME/.gemini/tmp/<project slug>/chats/session-<minute>-<first 8 of id>.jsonl` (§3). The
   * conversation's file (the hooks' `transcript_path`) comes first: a `--resume` that starts in a
   * later minute also leaves a header-only `session-<that minute>-<id>.jsonl` behind (0.61 creates a
   * fresh session file before it loads the resumed one), which is listed after it. In the session's
   * first minute that fresh file is the conversation's own (same name): its header lands there, and
   * the resume rewrites the message list without tokens (fixtures/gemini/0.61.0/resumed/README).
   */
  transcriptPaths(): string[] {
    const files = this.homeFiles(`.gemini/tmp/*/chats/session-*-${this.sessionId.slice(0, 8)}.jsonl`);
    const fromHooks = this.hookInvocations()
      .map((h) => h.payload?.['transcript_path'])
      .filter((p): p is string => typeof p === 'string' && files.includes(p));
    return [...new Set([...fromHooks, ...files])];
  }
}
