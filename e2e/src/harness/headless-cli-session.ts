import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { AgentSession, type HeadlessArgv, type PreparedSession, type PromptOptions, type SessionOptions } from './agent-session.ts';
import type { ProcessResult } from './process-group.ts';
import { commitAll } from './temp-workspace.ts';

/** A JSON settings file a session writes before the initial commit. */
export interface SettingsFile {
  readonly file: string;
  readonly value: unknown;
}

/**
 * A headless `<cli> -p <prompt> [flags] --session-id <id>` session whose id the harness picks
 * (Claude Code, Gemini CLI, Qwen Code, Copilot CLI): what they share is here, each runner keeps only
 * what differs (its settings files, its environment, its flags, where it writes the transcript).
 * - `start`: the temp workspace, `$HOME` and the mock ({@link AgentSession.prepare}), the settings
 *   files, the initial commit (settings included, so `git status` starts clean); anything that fails
 *   on the way removes what was made;
 * - `prompt`: one CLI run in its own process group (killed at the deadline), in the repo, with
 *   {@link env}: the first prompt fixes the session id, later ones resume it ({@link sessionArgs}).
 */
export abstract class HeadlessCliSession extends AgentSession {
  private readonly id = randomUUID();
  private prompts = 0;

  /**
   * Starts a session made by `create` (a runner's private constructor). A static method of the
   * runner calls it as `HeadlessCliSession.startWith(…)`, never through `this` (callers pass
   * `start` around unbound).
   */
  protected static async startWith<S extends HeadlessCliSession>(options: SessionOptions, create: (prepared: PreparedSession) => S): Promise<S> {
    const prepared = await AgentSession.prepare(options);
    let session: S;
    try {
      session = create(prepared);
    } catch (error) {
      // No session to dispose yet (e.g. the pinned CLIs are not installed): remove what `prepare` made.
      prepared.workspace.dispose();
      if (prepared.ownsMock) await prepared.mock.close();
      throw error;
    }
    try {
      for (const { file, value } of session.settingsFiles()) writeJson(file, value);
      commitAll(session.workspace, 'initial commit');
      return session;
    } catch (error) {
      await session.dispose();
      throw error;
    }
  }

  get sessionId(): string {
    return this.id;
  }

  /** The settings files the CLI reads (user ones under `$HOME`, project ones in the repo). */
  protected abstract settingsFiles(): SettingsFile[];

  /** The agent's own variables (the mock's URL and key, switches), on top of the isolated env. */
  protected abstract agentEnv(): Record<string, string>;

  /** The flags after the prompt (output format, permissions, model). */
  protected abstract promptFlags(): readonly string[];

  env(): Record<string, string> {
    return { ...this.baseEnv(), ...this.agentEnv() };
  }

  /** `<cli> -p <prompt> <flags>` without a session argument: a fresh session per invocation (what a loop runner starts). */
  headlessArgv(): HeadlessArgv {
    return { beforePrompt: [...this.cli.argv, '-p'], afterPrompt: [...this.promptFlags()] };
  }

  /** How the `index`-th prompt names the session: the first fixes its id, later ones `--resume` it. */
  protected sessionArgs(index: number): string[] {
    return index === 0 ? ['--session-id', this.id] : ['--resume', this.id];
  }

  /** Runs one CLI invocation (the first starts the session, later ones resume it). */
  async prompt(text: string, options: PromptOptions = {}): Promise<ProcessResult> {
    const sessionArgs = this.sessionArgs(this.prompts);
    this.prompts += 1;
    const { beforePrompt, afterPrompt } = this.headlessArgv();
    return this.runCli([...beforePrompt, text, ...afterPrompt, ...sessionArgs], options);
  }

  /** `[file]` when it exists, else none (a transcript not written yet). */
  protected existingFiles(file: string): string[] {
    return existsSync(file) ? [file] : [];
  }

  /** The files under `$HOME` matching a fast-glob `pattern` (dot directories included), sorted. */
  protected homeFiles(pattern: string): string[] {
    return fg.sync(pattern, { cwd: this.workspace.home, absolute: true, dot: true }).sort();
  }
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}
