import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { E2E_PACKAGE_DIR } from './harness/agent-clis.ts';
import type { PreparedSession, SessionOptions } from './harness/agent-session.ts';
import { HeadlessCliSession, type SettingsFile } from './harness/headless-cli-session.ts';

/** The provider and model the session's `models.json` defines (the mock answers any model name). */
export const PI_PROVIDER = 'mock';
export const PI_MODEL = 'mock-model';
/**
 * The window `models.json` gives the mock model: large, so Pi's own auto-compaction (past the window
 * minus its 16k reserve) never runs in a scenario that reports a context of a 200k window's 86 %.
 */
export const PI_MODEL_WINDOW = 1_000_000;

/** The Pi extension as the plugin ships it (`plugins/agent-checkpoint/pi/agent-checkpoint/`). */
export const PI_EXTENSION_SOURCE = path.resolve(E2E_PACKAGE_DIR, '..', 'plugins', 'agent-checkpoint', 'pi', 'agent-checkpoint', 'index.js');

/**
 * Pi (`@mariozechner/pi-coding-agent` 0.73.1), headless (`-p`), against the mock
 * (fixtures/pi/0.73.1/README.md):
 * - `~/.pi/agent/models.json` defines provider `mock` (`api: "anthropic-messages"`, `baseUrl` = the
 *   mock); `--provider mock --model mock-model`; `PI_OFFLINE=1` skips the start-up version check;
 * - the hook is our extension, installed as the user would have it
 *   (`~/.pi/agent/extensions/agent-checkpoint/index.js` + `hook.json`), its command the probe;
 * - Pi names the session itself (no flag picks its id): the first prompt starts it, later prompts
 *   `--continue` the newest one of the cwd, and {@link sessionId} is read from its file's name.
 */
export class PiSession extends HeadlessCliSession {
  static start(options: SessionOptions): Promise<PiSession> {
    return HeadlessCliSession.startWith(options, (prepared) => {
      const session = new PiSession(prepared, options);
      session.copyExtension();
      return session;
    });
  }

  private constructor(prepared: PreparedSession, options: SessionOptions) {
    super('pi', prepared, options);
  }

  private get agentDir(): string {
    return path.join(this.workspace.home, '.pi', 'agent');
  }

  private get extensionDir(): string {
    return path.join(this.agentDir, 'extensions', 'agent-checkpoint');
  }

  /** The extension file beside the hook.json {@link settingsFiles} writes (not a JSON file, so copied here). */
  private copyExtension(): void {
    if (!this.installsHook) return;
    mkdirSync(this.extensionDir, { recursive: true });
    copyFileSync(PI_EXTENSION_SOURCE, path.join(this.extensionDir, 'index.js'));
  }

  protected settingsFiles(): SettingsFile[] {
    const models = { providers: { [PI_PROVIDER]: { baseUrl: this.mock.url, api: 'anthropic-messages', apiKey: 'e2e-mock-key', models: [{ id: PI_MODEL, contextWindow: PI_MODEL_WINDOW }] } } };
    // The settings shape `install --agent pi` writes, its command the probe.
    const hooks = { hooks: { turn_end: [{ hooks: [{ type: 'command', command: this.probeCommand('hook', 'probe-hook.json'), timeout: 60 }] }] } };
    return [{ file: path.join(this.agentDir, 'models.json'), value: models }, ...(this.installsHook ? [{ file: path.join(this.extensionDir, 'hook.json'), value: hooks }] : [])];
  }

  protected agentEnv(): Record<string, string> {
    return { PI_OFFLINE: '1' };
  }

  protected promptFlags(): readonly string[] {
    return ['--provider', PI_PROVIDER, '--model', PI_MODEL];
  }

  /** The first prompt starts a session; later ones `--continue` the newest session of the cwd (ours). */
  protected override sessionArgs(index: number): string[] {
    return index === 0 ? [] : ['--continue'];
  }

  /**
   * The session id Pi chose, from the session file's name (`<time>_<uuid>.jsonl`), which exists once
   * the first prompt got an answer. Throws before that: there is no id to compare with yet.
   */
  override get sessionId(): string {
    const file = this.transcriptPaths()[0];
    const id = file === undefined ? undefined : /_([^_]+)\.jsonl$/.exec(path.basename(file))?.[1];
    if (id === undefined) throw new Error('Pi has not written its session file yet (it names the session at the first answer)');
    return id;
  }

  /** `~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl`, oldest first. */
  transcriptPaths(): string[] {
    return this.homeFiles('.pi/agent/sessions/*/*.jsonl');
  }
}
