import path from 'node:path';
import fg from 'fast-glob';
import { AgentSession, type HeadlessArgv, type PreparedSession, type PromptOptions, type SessionOptions } from './harness/agent-session.ts';
import { writeCodexHome } from './harness/codex-home.ts';
import type { ProcessResult } from './harness/process-group.ts';
import { commitAll } from './harness/temp-workspace.ts';
import { waitFor } from './harness/wait-for.ts';

/**
 * Shared Codex setup (exec and TUI): `$CODEX_HOME` = `$HOME/.codex` with the mock provider,
 * the Stop hook in `hooks.json` and `notify`, both through the probe.
 */
export abstract class CodexSessionBase extends AgentSession {
  protected constructor(prepared: PreparedSession, options: SessionOptions) {
    super('codex', prepared, options);
    this.writeProbeConfig('probe-notify.json', 'notify.jsonl', { kind: 'probe' });
    const probeNotify = this.probeArgv('notify', 'probe-notify.json');
    writeCodexHome({
      codexHome: this.codexHome,
      repo: this.workspace.repo,
      mockUrl: this.mock.url,
      notifyArgv: options.notifyChain === undefined ? probeNotify : [...options.notifyChain, '--', ...probeNotify],
      ...(this.installsHook ? { stopHookCommand: this.probeCommand('hook', 'probe-hook.json') } : {}),
      ...(options.codexModel !== undefined ? { model: options.codexModel } : {}),
    });
    commitAll(this.workspace, 'initial commit');
  }

  get codexHome(): string {
    return path.join(this.workspace.home, '.codex');
  }

  env(): Record<string, string> {
    return { ...this.baseEnv(), CODEX_HOME: this.codexHome, MOCK_API_KEY: 'e2e-mock-openai-key' };
  }

  /** `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`, one per thread (§2). */
  transcriptPaths(): string[] {
    const id = this.sessionId;
    return this.transcriptPathsMatching(id === undefined ? 'sessions/**/rollout-*.jsonl' : `sessions/**/rollout-*-${id}.jsonl`);
  }

  protected transcriptPathsMatching(pattern: string): string[] {
    return fg.sync(pattern, { cwd: this.codexHome, absolute: true }).sort();
  }

  /**
   * notify is fire-and-forget: Codex may exit before the program has even started. Waits until
   * `count` notifications for this session's thread are recorded.
   */
  async waitForNotifications(count: number, timeoutMs = 10_000): Promise<void> {
    await waitFor(() => this.mainThreadNotifications().length >= count, { timeoutMs, what: `${count} codex notify call(s)` });
  }

  /** Notifications of the main thread (the TUI's title-generator threads notify too). */
  mainThreadNotifications(): ReturnType<AgentSession['notifications']> {
    return this.notifications().filter((n) => this.sessionId === undefined || n.payload?.['thread-id'] === this.sessionId);
  }
}

/**
 * Codex CLI 0.169.0 headless: `codex exec --json --dangerously-bypass-hook-trust` (without the
 * flag, exec silently skips untrusted hooks). The thread id comes from the `thread.started` event;
 * later prompts run `codex exec resume <id>`, which appends a turn to the same rollout.
 */
export class CodexSession extends CodexSessionBase {
  private threadId: string | undefined;

  static async start(options: SessionOptions): Promise<CodexSession> {
    const prepared = await AgentSession.prepare(options);
    try {
      return new CodexSession(prepared, options);
    } catch (error) {
      prepared.workspace.dispose();
      if (prepared.ownsMock) await prepared.mock.close();
      throw error;
    }
  }

  private constructor(prepared: PreparedSession, options: SessionOptions) {
    super(prepared, options);
  }

  get sessionId(): string | undefined {
    return this.threadId;
  }

  /** Runs one `codex exec` (the first starts the thread, later ones `exec resume` it). */
  async prompt(text: string, options: PromptOptions = {}): Promise<ProcessResult> {
    const common = ['--json', '--dangerously-bypass-hook-trust'];
    const argv = this.threadId === undefined ? [...this.headlessArgv().beforePrompt, text] : [...this.cli.argv, 'exec', 'resume', ...common, this.threadId, text];
    const result = await this.runCli(argv, options);
    this.threadId ??= threadIdFrom(result.stdout);
    return result;
  }

  /**
   * `codex exec --json --dangerously-bypass-hook-trust <prompt>`: a fresh thread per invocation (what
   * a loop runner starts). Without the flag, exec silently skips untrusted hooks.
   */
  headlessArgv(): HeadlessArgv {
    return { beforePrompt: [...this.cli.argv, 'exec', '--json', '--dangerously-bypass-hook-trust'], afterPrompt: [] };
  }
}

/** `{"type":"thread.started","thread_id":"…"}` from `codex exec --json`. */
function threadIdFrom(stdout: string): string | undefined {
  for (const line of stdout.split('\n')) {
    try {
      const event = JSON.parse(line) as { type?: unknown; thread_id?: unknown };
      if (event.type === 'thread.started' && typeof event.thread_id === 'string') return event.thread_id;
    } catch {
      // not JSON (a warning line)
    }
  }
  return undefined;
}
