import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentId } from '@agent-checkpoint/core';
import { startModelMock, type ModelMock } from '../mock/mock-server.ts';
import type { LoggedRequest } from '../mock/request-log.ts';
import type { Scenario } from '../mock/scenario.ts';
import { shellQuote } from '../mock/native-tool-calls.ts';
import { agentCli, PROBE_HOOK_PATH, type AgentCli } from './agent-clis.ts';
import { isolatedEnv } from './isolated-env.ts';
import { killMarkedProcesses, runInGroup, type ProcessResult, type RunOptions } from './process-group.ts';
import { readJsonlFile } from './read-jsonl-file.ts';
import { createTempWorkspace, type TempWorkspace } from './temp-workspace.ts';

/** The canonical prefix of agent-checkpoint messages (used by the recorded fixtures). */
export const CHECKPOINT_PREFIX = '[agent-checkpoint] ';

/**
 * The Stop/AfterAgent hook a session installs. Unless `none`, the probe (`probe-hook.mjs`) is the
 * installed command, so every invocation is recorded:
 * - `probe`: the probe decides: pass, or block the first invocation with `blockOnce.reason`;
 * - `command`: the probe runs `command` with the same stdin/env/cwd and relays its output and exit
 *   code unchanged (use this for the real agent-checkpoint hook) and records the command's wall time.
 * Every invocation (hooks and Codex notify) also snapshots the transcript as the hook left it
 * (`HookInvocation.transcriptSnapshot`), for computing what the hook should have said.
 */
export type HookSpec =
  | { readonly kind: 'probe'; readonly blockOnce?: { readonly reason: string; readonly style?: 'json' | 'exit2' } }
  | { readonly kind: 'command'; readonly command: string }
  /** No Stop/AfterAgent hook at all (e.g. the Codex tmux route, for sessions without hooks). */
  | { readonly kind: 'none' };

/** One recorded hook (or Codex notify) invocation, as written by the probe. */
export interface HookInvocation {
  readonly n: number;
  readonly at: string;
  readonly mode: 'hook' | 'notify';
  readonly event: string | null;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** The parsed stdin payload (hook) or payload argument (notify); null if it was not JSON. */
  readonly payload: Record<string, unknown> | null;
  readonly stdinRaw?: string;
  /** Size of `payload.transcript_path` when the hook ran (null when absent). */
  readonly transcriptSizeAtHook: number | null;
  /** Copy of the transcript taken right after the hook decided (null: copy failed; absent: not asked). */
  readonly transcriptSnapshot?: string | null;
  readonly response: {
    readonly action: 'block' | 'pass' | 'exec' | 'record';
    readonly stdout: string;
    readonly stderr: string;
    readonly exitCode: number;
    /** Wall time of the relayed command (`exec` only), in ms. */
    readonly durationMs?: number;
  };
}

export interface SessionOptions {
  readonly scenario: Scenario;
  /** Files of the initial commit (agent settings files are added to the same commit). */
  readonly files?: Readonly<Record<string, string>>;
  /** Defaults to a probe that always passes. */
  readonly hook?: HookSpec;
  /** Hard deadline per CLI invocation; the process group is killed after it. */
  readonly timeoutMs?: number;
  /** Share a running mock (its script is replaced by `scenario`); by default each session owns one. */
  readonly mock?: ModelMock;
  /**
   * Extra environment of the CLI (and so of its hooks and notify programs), on top of the isolated
   * one, e.g. `AGENT_CHECKPOINT_STATE_DIR`; a function gets the workspace, to point inside it.
   */
  readonly env?: Readonly<Record<string, string>> | ((workspace: TempWorkspace) => Readonly<Record<string, string>>);
  /**
   * Codex only: a notify program to run instead of recording through the probe alone. Codex's
   * `notify` becomes `[...notifyChain, "--", <probe notify argv>]`, the chaining contract of
   * `agent-checkpoint-tmux` (it starts the program after `--` with the same payload), so every
   * notify call is still recorded.
   */
  readonly notifyChain?: readonly string[];
  /**
   * Codex only: the model slug (default `gpt-5.5`, `CODEX_MODEL`). A `code_mode_only` catalog entry
   * (`gpt-6.1-sol`) runs Codex in code mode, with the collaboration (multi-agent) tools offered.
   */
  readonly codexModel?: string;
}

/**
 * The argv of one headless CLI run that starts a fresh session: `[...beforePrompt, prompt,
 * ...afterPrompt]`. The loop runner (`loop-runner.ts`) writes it into a shell script.
 */
export interface HeadlessArgv {
  readonly beforePrompt: readonly string[];
  readonly afterPrompt: readonly string[];
}

/** Options of one headless prompt (one CLI invocation). */
export interface PromptOptions {
  readonly timeoutMs?: number;
  /** Runs alongside the CLI, e.g. to interrupt it (see `RunOptions.during`). */
  readonly during?: RunOptions['during'];
}

/** Everything a test or a fixture recorder needs after (or during) a session. */
export interface SessionArtifacts {
  readonly agent: AgentId;
  readonly cliVersion: string;
  readonly workspace: Pick<TempWorkspace, 'root' | 'repo' | 'home' | 'logs'>;
  readonly sessionId: string | undefined;
  readonly transcriptPaths: readonly string[];
  /** One result per CLI invocation (per prompt for headless runs). */
  readonly runs: readonly ProcessResult[];
  /** The mock's requests made during this session. */
  readonly requests: readonly LoggedRequest[];
  readonly hookInvocations: readonly HookInvocation[];
  /** Codex `notify` invocations (empty for the other agents). */
  readonly notifications: readonly HookInvocation[];
}

export const DEFAULT_TIMEOUT_MS = 120_000;

/** The resources a session owns before its agent-specific setup runs. */
export interface PreparedSession {
  readonly workspace: TempWorkspace;
  readonly mock: ModelMock;
  readonly ownsMock: boolean;
}

/** Runs `fn` with a started session and always disposes it (processes, mock, temp dirs). */
export async function withSession<S extends AgentSession, T>(start: Promise<S>, fn: (session: S) => Promise<T>): Promise<T> {
  const session = await start;
  try {
    return await fn(session);
  } finally {
    await session.dispose();
  }
}

/** Shared lifecycle of one agent session: temp workspace, mock, probe config, cleanup. */
export abstract class AgentSession {
  readonly agent: AgentId;
  readonly workspace: TempWorkspace;
  readonly mock: ModelMock;
  readonly cli: AgentCli;
  readonly runs: ProcessResult[] = [];
  protected readonly timeoutMs: number;
  /** Whether a Stop/AfterAgent hook is installed (`hook.kind !== "none"`). */
  protected readonly installsHook: boolean;
  private readonly extraEnv: Readonly<Record<string, string>>;
  private readonly ownsMock: boolean;
  private readonly requestOffset: number;
  private disposed = false;

  protected constructor(agent: AgentId, prepared: PreparedSession, options: SessionOptions) {
    this.agent = agent;
    this.workspace = prepared.workspace;
    this.mock = prepared.mock;
    this.ownsMock = prepared.ownsMock;
    this.cli = agentCli(agent);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.installsHook = options.hook?.kind !== 'none';
    this.extraEnv = typeof options.env === 'function' ? options.env(this.workspace) : (options.env ?? {});
    this.requestOffset = this.mock.requests.length;
    this.mock.setScenario(options.scenario);
    this.mock.setWorkspaceRoot(this.workspace.repo);
    this.writeProbeConfig('probe-hook.json', 'hooks.jsonl', options.hook ?? { kind: 'probe' });
  }

  /** Creates the workspace and (unless shared) the mock; cleans up if anything fails. */
  protected static async prepare(options: SessionOptions): Promise<PreparedSession> {
    const workspace = createTempWorkspace({ files: options.files ?? {} });
    try {
      if (options.mock) return { workspace, mock: options.mock, ownsMock: false };
      const mock = await startModelMock({ scenario: options.scenario, logFile: path.join(workspace.logs, 'requests.jsonl') });
      return { workspace, mock, ownsMock: true };
    } catch (error) {
      workspace.dispose();
      throw error;
    }
  }

  abstract get sessionId(): string | undefined;
  abstract transcriptPaths(): string[];
  /** The complete environment the CLI runs with (and its hooks and notify programs inherit). */
  abstract env(): Record<string, string>;

  /** Shell command that runs the probe with the given config file. */
  protected probeCommand(mode: 'hook', configFile: string): string {
    return `node ${shellQuote(PROBE_HOOK_PATH)} ${mode} ${shellQuote(path.join(this.workspace.logs, configFile))}`;
  }

  /** argv form, for Codex `notify` (run without a shell). */
  protected probeArgv(mode: 'notify', configFile: string): string[] {
    return ['node', PROBE_HOOK_PATH, mode, path.join(this.workspace.logs, configFile)];
  }

  protected writeProbeConfig(configFile: string, logFile: string, hook: HookSpec): void {
    const log = path.join(this.workspace.logs, logFile);
    const snapshotDir = path.join(this.workspace.logs, 'transcript-snapshots');
    const config =
      hook.kind === 'command'
        ? { log, snapshotDir, exec: hook.command }
        : hook.kind === 'none' || hook.blockOnce === undefined
          ? { log, snapshotDir }
          : { log, snapshotDir, blockOnce: { reason: hook.blockOnce.reason, decision: this.blockDecisionFor(), style: hook.blockOnce.style ?? 'json' } };
    mkdirSync(snapshotDir, { recursive: true });
    writeFileSync(path.join(this.workspace.logs, configFile), `${JSON.stringify(config, null, 2)}\n`);
  }

  /**
   * Runs one CLI invocation in its own process group (killed at `options.timeoutMs`, default the
   * session's), in the repo, with {@link env}, and records its result in {@link runs}.
   */
  protected async runCli(argv: readonly string[], options: PromptOptions = {}): Promise<ProcessResult> {
    const result = await runInGroup(argv, { cwd: this.workspace.repo, env: this.env(), timeoutMs: options.timeoutMs ?? this.timeoutMs, ...(options.during ? { during: options.during } : {}) });
    this.runs.push(result);
    return result;
  }

  /** The isolated environment plus `SessionOptions.env`; runners add their agent's variables. */
  protected baseEnv(): Record<string, string> {
    return { ...isolatedEnv(this.workspace), ...this.extraEnv };
  }

  /** How a block is spelled in JSON for this agent (Gemini documents `deny`, the others `block`). */
  private blockDecisionFor(): 'block' | 'deny' {
    return this.agent === 'gemini' ? 'deny' : 'block';
  }

  /**
   * Replaces the hook command the probe runs (`hook.kind === "command"`), e.g. once a test knows
   * paths inside the workspace. Takes effect at the next hook invocation.
   */
  setHookCommand(command: string): void {
    this.writeProbeConfig('probe-hook.json', 'hooks.jsonl', { kind: 'command', command });
  }

  get requests(): readonly LoggedRequest[] {
    return this.mock.requests.slice(this.requestOffset);
  }

  hookInvocations(): HookInvocation[] {
    return readJsonlFile<HookInvocation>(path.join(this.workspace.logs, 'hooks.jsonl'));
  }

  notifications(): HookInvocation[] {
    return readJsonlFile<HookInvocation>(path.join(this.workspace.logs, 'notify.jsonl'));
  }

  artifacts(): SessionArtifacts {
    const { root, repo, home, logs } = this.workspace;
    return {
      agent: this.agent,
      cliVersion: this.cli.version,
      workspace: { root, repo, home, logs },
      sessionId: this.sessionId,
      transcriptPaths: this.transcriptPaths(),
      runs: [...this.runs],
      requests: this.requests,
      hookInvocations: this.hookInvocations(),
      notifications: this.notifications(),
    };
  }

  /** Kills every process of this session (by marker), closes an owned mock, removes temp dirs. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    try {
      await this.disposeAgent();
    } finally {
      killMarkedProcesses(this.workspace.runId);
      if (this.ownsMock) await this.mock.close();
      this.workspace.dispose();
    }
  }

  /** Agent-specific teardown (e.g. the tmux server); runs before the process sweep. */
  protected async disposeAgent(): Promise<void> {}
}
