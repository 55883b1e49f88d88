import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { E2E_PACKAGE_DIR } from './harness/agent-clis.ts';
import { AgentSession, type HeadlessArgv, type PreparedSession, type PromptOptions, type SessionOptions } from './harness/agent-session.ts';
import { runInGroup, type ProcessResult } from './harness/process-group.ts';
import { commitAll } from './harness/temp-workspace.ts';

/** The provider and model the session's `models.json` defines (the mock answers any model name). */
export const PI_PROVIDER = 'mock';
export const PI_MODEL = 'mock-model';

/** The Pi extension as the plugin ships it (`plugins/agent-checkpoint/pi/agent-checkpoint/`). */
export const PI_EXTENSION_SOURCE = path.resolve(E2E_PACKAGE_DIR, '..', 'plugins', 'agent-checkpoint', 'pi', 'agent-checkpoint', 'index.js');

/**
 * Pi (`@mariozechner/pi-coding-agent` 0.73.1), headless (`-p`), against the mock
 * (fixtures/pi/0.73.1/README.md):
 * - `~/.pi/agent/models.json` defines provider `mock` (`api: "anthropic-messages"`, `baseUrl` = the
 *   mock); `--provider mock --model mock-model`; `PI_OFFLINE=1` skips the start-up version check;
 * - the hook is our extension, installed as the user would have it
 *   (`~/.pi/agent/extensions/agent-checkpoint/index.js` + `hook.json`), its command the probe;
 * - the first prompt starts the session, later prompts `--continue` the newest one of the cwd.
 */
export class PiSession extends AgentSession {
  private prompts = 0;

  static async start(options: SessionOptions): Promise<PiSession> {
    const session = new PiSession(await AgentSession.prepare(options), options);
    try {
      session.install();
      return session;
    } catch (error) {
      await session.dispose();
      throw error;
    }
  }

  private constructor(prepared: PreparedSession, options: SessionOptions) {
    super('pi', prepared, options);
  }

  private get agentDir(): string {
    return path.join(this.workspace.home, '.pi', 'agent');
  }

  private install(): void {
    const models = { providers: { [PI_PROVIDER]: { baseUrl: this.mock.url, api: 'anthropic-messages', apiKey: 'e2e-mock-key', models: [{ id: PI_MODEL }] } } };
    mkdirSync(this.agentDir, { recursive: true });
    writeFileSync(path.join(this.agentDir, 'models.json'), `${JSON.stringify(models, null, 2)}\n`);
    if (this.installsHook) {
      const dir = path.join(this.agentDir, 'extensions', 'agent-checkpoint');
      mkdirSync(dir, { recursive: true });
      copyFileSync(PI_EXTENSION_SOURCE, path.join(dir, 'index.js'));
      // The settings shape `install --agent pi` writes, its command the probe.
      const hooks = { turn_end: [{ hooks: [{ type: 'command', command: this.probeCommand('hook', 'probe-hook.json'), timeout: 60 }] }] };
      writeFileSync(path.join(dir, 'hook.json'), `${JSON.stringify({ hooks }, null, 2)}\n`);
    }
    commitAll(this.workspace, 'initial commit');
  }

  /** The session id, from the session file's name (`<time>_<uuid>.jsonl`) once the first prompt ran. */
  get sessionId(): string | undefined {
    const file = this.transcriptPaths()[0];
    return file === undefined ? undefined : /_([^_]+)\.jsonl$/.exec(path.basename(file))?.[1];
  }

  env(): Record<string, string> {
    return { ...this.baseEnv(), PI_OFFLINE: '1' };
  }

  /** Runs one `pi -p` invocation (the first starts the session, later ones `--continue` it). */
  async prompt(text: string, options: PromptOptions = {}): Promise<ProcessResult> {
    const sessionArgs = this.prompts === 0 ? [] : ['--continue'];
    this.prompts += 1;
    const { beforePrompt, afterPrompt } = this.headlessArgv();
    const argv = [...beforePrompt, ...sessionArgs, ...afterPrompt, text];
    const result = await runInGroup(argv, { cwd: this.workspace.repo, env: this.env(), timeoutMs: options.timeoutMs ?? this.timeoutMs, ...(options.during ? { during: options.during } : {}) });
    this.runs.push(result);
    return result;
  }

  /** `pi -p --provider mock --model mock-model <prompt>`: a fresh session per invocation. */
  headlessArgv(): HeadlessArgv {
    return { beforePrompt: [...this.cli.argv, '-p'], afterPrompt: ['--provider', PI_PROVIDER, '--model', PI_MODEL] };
  }

  /** `~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl`, oldest first. */
  transcriptPaths(): string[] {
    return fg.sync('sessions/*/*.jsonl', { cwd: this.agentDir, absolute: true }).sort();
  }
}
