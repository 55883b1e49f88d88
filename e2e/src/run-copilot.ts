import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultCliCacheRoot } from './harness/agent-cli-install.ts';
import { AgentSession, type HeadlessArgv, type PreparedSession, type PromptOptions, type SessionOptions } from './harness/agent-session.ts';
import { runInGroup, type ProcessResult } from './harness/process-group.ts';
import { commitAll } from './harness/temp-workspace.ts';

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
export class CopilotSession extends AgentSession {
  private readonly id = randomUUID();

  static async start(options: SessionOptions): Promise<CopilotSession> {
    const session = new CopilotSession(await AgentSession.prepare(options), options);
    try {
      session.install();
      return session;
    } catch (error) {
      await session.dispose();
      throw error;
    }
  }

  private constructor(prepared: PreparedSession, options: SessionOptions) {
    super('copilot', prepared, options);
  }

  private install(): void {
    const hooks = this.installsHook ? { hooks: { agentStop: [{ type: 'command', bash: this.probeCommand('hook', 'probe-hook.json'), timeoutSec: 30 }] } } : {};
    const dir = path.join(this.workspace.home, '.copilot');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'settings.json'), `${JSON.stringify(hooks, null, 2)}\n`);
    commitAll(this.workspace, 'initial commit');
  }

  get sessionId(): string {
    return this.id;
  }

  env(): Record<string, string> {
    return {
      ...this.baseEnv(),
      XDG_CACHE_HOME: copilotUnpackCache(),
      COPILOT_PROVIDER_BASE_URL: `${this.mock.url}/v1`,
      COPILOT_PROVIDER_API_KEY: 'e2e-mock-copilot-key',
      COPILOT_MODEL,
    };
  }

  /** Runs one `copilot -p` invocation (the first starts the session, later ones resume it). */
  async prompt(text: string, options: PromptOptions = {}): Promise<ProcessResult> {
    const { beforePrompt, afterPrompt } = this.headlessArgv();
    const argv = [...beforePrompt, text, ...afterPrompt, '--session-id', this.id];
    const result = await runInGroup(argv, { cwd: this.workspace.repo, env: this.env(), timeoutMs: options.timeoutMs ?? this.timeoutMs, ...(options.during ? { during: options.during } : {}) });
    this.runs.push(result);
    return result;
  }

  /** `copilot -p <prompt> --allow-all-tools` without a session argument: a fresh session per invocation. */
  headlessArgv(): HeadlessArgv {
    return { beforePrompt: [...this.cli.argv, '-p'], afterPrompt: ['--allow-all-tools'] };
  }

  /** `$HOME/.copilot/session-state/<session id>/events.jsonl`. */
  transcriptPaths(): string[] {
    const file = path.join(this.workspace.home, '.copilot', 'session-state', this.id, 'events.jsonl');
    return existsSync(file) ? [file] : [];
  }
}

/** The `XDG_CACHE_HOME` every Copilot session shares: its unpacked JavaScript lives under `copilot/pkg/`. */
export function copilotUnpackCache(): string {
  const dir = path.join(defaultCliCacheRoot(), 'copilot-xdg-cache');
  mkdirSync(dir, { recursive: true });
  return dir;
}
