import path from 'node:path';
import type { PreparedSession, SessionOptions } from './harness/agent-session.ts';
import { HeadlessCliSession, type SettingsFile } from './harness/headless-cli-session.ts';

/** The model name Qwen Code sends to the mock's chat completions. */
export const QWEN_MODEL = 'qwen-mock';

/**
 * Qwen Code 0.24.4, headless (`-p`), against the mock's chat completions. Per qwen-code.md:
 * - `$HOME` isolated; `OPENAI_BASE_URL` = the mock's `/v1`, `OPENAI_API_KEY`, `OPENAI_MODEL`, and
 *   `--auth-type openai`; `--yolo` runs every tool without asking; telemetry, auto-update and the
 *   background memory extraction off;
 * - the Stop hook in the project's `.qwen/settings.json` (committed; folder trust is off by default,
 *   so project hooks load without it), its timeout in seconds;
 * - the first prompt fixes the session id (`--session-id`), later prompts `--resume` it.
 */
export class QwenSession extends HeadlessCliSession {
  static start(options: SessionOptions): Promise<QwenSession> {
    return HeadlessCliSession.startWith(options, (prepared) => new QwenSession(prepared, options));
  }

  private constructor(prepared: PreparedSession, options: SessionOptions) {
    super('qwen', prepared, options);
  }

  protected settingsFiles(): SettingsFile[] {
    // No telemetry, no auto-update: the session must talk to the mock only. No managed auto-memory
    // either: after a resumed prompt 0.24.4 asks the model, in the background, to extract memories
    // (a request no scenario scripts, answered by the mock's fallback).
    const userSettings = {
      telemetry: { enabled: false },
      privacy: { usageStatisticsEnabled: false },
      general: { enableAutoUpdate: false },
      memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
    };
    const projectSettings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: this.probeCommand('hook', 'probe-hook.json'), timeout: 30 }] }] } };
    return [
      { file: path.join(this.workspace.home, '.qwen', 'settings.json'), value: userSettings },
      ...(this.installsHook ? [{ file: path.join(this.workspace.repo, '.qwen', 'settings.json'), value: projectSettings }] : []),
    ];
  }

  protected agentEnv(): Record<string, string> {
    return {
      OPENAI_BASE_URL: `${this.mock.url}/v1`,
      OPENAI_API_KEY: 'e2e-mock-qwen-key',
      OPENAI_MODEL: QWEN_MODEL,
      QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    };
  }

  protected promptFlags(): readonly string[] {
    return ['--auth-type', 'openai', '--yolo'];
  }

  /** `$HOME/.qwen/projects/<cwd slug>/chats/<session id>.jsonl` (subagents write their own files elsewhere). */
  transcriptPaths(): string[] {
    return this.homeFiles(`.qwen/projects/*/chats/${this.sessionId}.jsonl`);
  }
}
