import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AgentSession, type HeadlessArgv, type PreparedSession, type PromptOptions, type SessionOptions } from './harness/agent-session.ts';
import { runInGroup, type ProcessResult } from './harness/process-group.ts';
import { commitAll } from './harness/temp-workspace.ts';

/**
 * Claude Code 2.1.330, headless (`-p`), against the mock. Per claude-cli.md §1–§2:
 * - `$HOME` isolated; `ANTHROPIC_BASE_URL` = the mock; nonessential traffic, telemetry, error
 *   reporting and the auto-updater off;
 * - `--permission-mode acceptEdits --allowedTools "Bash Edit Write Read"`: works as root, where
 *   `--dangerously-skip-permissions` is refused;
 * - the Stop hook in the project's `.claude/settings.json` (committed, so `git status` starts
 *   clean);
 * - the first prompt fixes the session id (`--session-id`), later prompts `--resume` it, which
 *   appends to the same transcript.
 */
export class ClaudeSession extends AgentSession {
  private readonly id = randomUUID();
  private prompts = 0;

  static async start(options: SessionOptions): Promise<ClaudeSession> {
    const session = new ClaudeSession(await AgentSession.prepare(options), options);
    try {
      session.install();
      return session;
    } catch (error) {
      await session.dispose();
      throw error;
    }
  }

  private constructor(prepared: PreparedSession, options: SessionOptions) {
    super('claude', prepared, options);
  }

  private install(): void {
    if (this.installsHook) {
      const settingsDir = path.join(this.workspace.repo, '.claude');
      mkdirSync(settingsDir, { recursive: true });
      const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: this.probeCommand('hook', 'probe-hook.json'), timeout: 30 }] }] } };
      writeFileSync(path.join(settingsDir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
    }
    commitAll(this.workspace, 'initial commit');
  }

  get sessionId(): string {
    return this.id;
  }

  env(): Record<string, string> {
    return {
      ...this.baseEnv(),
      ANTHROPIC_BASE_URL: this.mock.url,
      ANTHROPIC_API_KEY: 'sk-ant-e2e-mock-0000000000000000000000',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
    };
  }

  /** Runs one `claude -p` invocation (the first starts the session, later ones resume it). */
  async prompt(text: string, options: PromptOptions = {}): Promise<ProcessResult> {
    const sessionArgs = this.prompts === 0 ? ['--session-id', this.id] : ['--resume', this.id];
    this.prompts += 1;
    const { beforePrompt, afterPrompt } = this.headlessArgv();
    const argv = [...beforePrompt, text, ...afterPrompt, ...sessionArgs];
    const result = await runInGroup(argv, { cwd: this.workspace.repo, env: this.env(), timeoutMs: options.timeoutMs ?? this.timeoutMs, ...(options.during ? { during: options.during } : {}) });
    this.runs.push(result);
    return result;
  }

  /**
   * `claude -p <prompt> …` without a session argument: a fresh session per invocation (what a loop
   * runner starts; `prompt` adds `--session-id`/`--resume`). The Agent tool needs no permission.
   */
  headlessArgv(): HeadlessArgv {
    const afterPrompt = ['--output-format', 'stream-json', '--verbose', '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash Edit Write Read'];
    return { beforePrompt: [...this.cli.argv, '-p'], afterPrompt };
  }

  /** `$HOME/.claude/projects/<cwd with non-alphanumerics as "-">/<session>.jsonl` (§3.1). */
  transcriptPaths(): string[] {
    const slug = this.workspace.repo.replace(/[^a-zA-Z0-9]/g, '-');
    const file = path.join(this.workspace.home, '.claude', 'projects', slug, `${this.id}.jsonl`);
    return existsSync(file) ? [file] : [];
  }
}
