import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { AgentSession, type HeadlessArgv, type PreparedSession, type PromptOptions, type SessionOptions } from './harness/agent-session.ts';
import { runInGroup, type ProcessResult } from './harness/process-group.ts';
import { commitAll } from './harness/temp-workspace.ts';

/** The model name Qwen Code sends to the mock's chat completions. */
export const QWEN_MODEL = 'qwen-mock';

/**
 * Qwen Code 0.24.4, headless (`-p`), against the mock's chat completions. Per qwen-code.md:
 * - `$HOME` isolated; `OPENAI_BASE_URL` = the mock's `/v1`, `OPENAI_API_KEY`, `OPENAI_MODEL`, and
 *   `--auth-type openai`; `--yolo` runs every tool without asking;
 * - the Stop hook in the project's `.qwen/settings.json` (committed; folder trust is off by default,
 *   so project hooks load without it), its timeout in seconds;
 * - the first prompt fixes the session id (`--session-id`), later prompts `--resume` it.
 */
export class QwenSession extends AgentSession {
  private readonly id = randomUUID();
  private prompts = 0;

  static async start(options: SessionOptions): Promise<QwenSession> {
    const session = new QwenSession(await AgentSession.prepare(options), options);
    try {
      session.install();
      return session;
    } catch (error) {
      await session.dispose();
      throw error;
    }
  }

  private constructor(prepared: PreparedSession, options: SessionOptions) {
    super('qwen', prepared, options);
  }

  private install(): void {
    // No telemetry, no auto-update: the session must talk to the mock only.
    writeJson(path.join(this.workspace.home, '.qwen', 'settings.json'), { telemetry: { enabled: false }, privacy: { usageStatisticsEnabled: false }, general: { enableAutoUpdate: false } });
    const projectSettings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: this.probeCommand('hook', 'probe-hook.json'), timeout: 30 }] }] } };
    if (this.installsHook) writeJson(path.join(this.workspace.repo, '.qwen', 'settings.json'), projectSettings);
    commitAll(this.workspace, 'initial commit');
  }

  get sessionId(): string {
    return this.id;
  }

  env(): Record<string, string> {
    return {
      ...this.baseEnv(),
      OPENAI_BASE_URL: `${this.mock.url}/v1`,
      OPENAI_API_KEY: 'e2e-mock-qwen-key',
      OPENAI_MODEL: QWEN_MODEL,
      QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    };
  }

  /** Runs one `qwen -p` invocation (the first starts the session, later ones resume it). */
  async prompt(text: string, options: PromptOptions = {}): Promise<ProcessResult> {
    const sessionArgs = this.prompts === 0 ? ['--session-id', this.id] : ['--resume', this.id];
    this.prompts += 1;
    const { beforePrompt, afterPrompt } = this.headlessArgv();
    const argv = [...beforePrompt, text, ...afterPrompt, ...sessionArgs];
    const result = await runInGroup(argv, { cwd: this.workspace.repo, env: this.env(), timeoutMs: options.timeoutMs ?? this.timeoutMs, ...(options.during ? { during: options.during } : {}) });
    this.runs.push(result);
    return result;
  }

  /** `qwen -p <prompt> --auth-type openai --yolo` without a session argument: a fresh session per invocation. */
  headlessArgv(): HeadlessArgv {
    return { beforePrompt: [...this.cli.argv, '-p'], afterPrompt: ['--auth-type', 'openai', '--yolo'] };
  }

  /** `$HOME/.qwen/projects/<cwd slug>/chats/<session id>.jsonl` (subagents write their own files elsewhere). */
  transcriptPaths(): string[] {
    return fg.sync(`.qwen/projects/*/chats/${this.id}.jsonl`, { cwd: this.workspace.home, absolute: true, dot: true });
  }
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}
