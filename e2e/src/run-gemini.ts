import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { AgentSession, type HeadlessArgv, type PreparedSession, type PromptOptions, type SessionOptions } from './harness/agent-session.ts';
import { runInGroup, type ProcessResult } from './harness/process-group.ts';
import { commitAll } from './harness/temp-workspace.ts';

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
export class GeminiSession extends AgentSession {
  private readonly id = randomUUID();
  private prompts = 0;

  static async start(options: SessionOptions): Promise<GeminiSession> {
    const session = new GeminiSession(await AgentSession.prepare(options), options);
    try {
      session.install();
      return session;
    } catch (error) {
      await session.dispose();
      throw error;
    }
  }

  private constructor(prepared: PreparedSession, options: SessionOptions) {
    super('gemini', prepared, options);
  }

  private install(): void {
    const userSettings = {
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      telemetry: { enabled: false },
      privacy: { usageStatisticsEnabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      ide: { enabled: false },
      ui: { hideBanner: true, hideTips: true },
    };
    writeJson(path.join(this.workspace.home, '.gemini', 'settings.json'), userSettings);
    const projectSettings = {
      hooks: {
        AfterAgent: [
          { matcher: '*', hooks: [{ name: 'e2e-probe', type: 'command', command: this.probeCommand('hook', 'probe-hook.json'), timeout: 30_000 }] },
        ],
      },
    };
    if (this.installsHook) writeJson(path.join(this.workspace.repo, '.gemini', 'settings.json'), projectSettings);
    commitAll(this.workspace, 'initial commit');
  }

  get sessionId(): string {
    return this.id;
  }

  env(): Record<string, string> {
    return {
      ...this.baseEnv(),
      GOOGLE_GEMINI_BASE_URL: this.mock.url,
      GEMINI_API_KEY: 'e2e-mock-gemini-key',
    };
  }

  /** Runs one `gemini -p` invocation (the first starts the session, later ones resume it). */
  async prompt(text: string, options: PromptOptions = {}): Promise<ProcessResult> {
    const sessionArgs = this.prompts === 0 ? ['--session-id', this.id] : ['--resume', this.id];
    this.prompts += 1;
    const { beforePrompt, afterPrompt } = this.headlessArgv();
    const argv = [...beforePrompt, text, ...afterPrompt, ...sessionArgs];
    const result = await runInGroup(argv, { cwd: this.workspace.repo, env: this.env(), timeoutMs: options.timeoutMs ?? this.timeoutMs, ...(options.during ? { during: options.during } : {}) });
    this.runs.push(result);
    return result;
  }

  /** `gemini -p <prompt> …` without a session argument: a fresh session per invocation. */
  headlessArgv(): HeadlessArgv {
    return { beforePrompt: [...this.cli.argv, '-p'], afterPrompt: ['-m', GEMINI_MODEL, '--approval-mode', 'yolo', '--output-format', 'stream-json'] };
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
    const files = fg.sync(`.gemini/tmp/*/chats/session-*-${this.id.slice(0, 8)}.jsonl`, { cwd: this.workspace.home, absolute: true, dot: true }).sort();
    const fromHooks = this.hookInvocations()
      .map((h) => h.payload?.['transcript_path'])
      .filter((p): p is string => typeof p === 'string' && files.includes(p));
    return [...new Set([...fromHooks, ...files])];
  }
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}
