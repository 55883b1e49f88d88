import type { AgentId, TranscriptReader, TurnEndDecision, UserCommands } from '@agent-checkpoint/core';
import type { DoctorFinding } from '@agent-checkpoint/setup-kit';
import type { PayloadReadResult } from '../hook-event.ts';
import type { HookVerdict } from '../hook-verdict.ts';
import type { HookEntrySpec } from '../install/hook-entry-spec.ts';
import type { HookProgram } from '../install/hook-command.ts';
import type { InstallScope } from '../install/install-scope.ts';
import type { PluginInstall } from '../install/plugin-install-types.ts';
import type { PluginRouteKind } from '../plugin-route-kind.ts';
import type { ContextPayloadReader } from './context-payload.ts';

/**
 * Everything delivery-hook knows about one agent CLI, in one object: the rest of the package asks the
 * profile and never branches on the agent id (`no-agent-switch.test.ts` enforces it). Adding an agent
 * is one profile file, its hook entries in `hook-entries.ts` and one entry in `profiles.ts` (both a
 * `Record<AgentId, …>`, so a new `AgentId` does not compile until its profile and entries exist).
 *
 * Cost rule: the hook's hot path (stdin → payload → escape hatch → output) reaches the profiles
 * statically, so a profile file imports only what that path needs anyway (zod/mini for the payload,
 * `node:path`). Everything heavier — transcript readers, settings-file parsing, TOML, globbing — is
 * imported lazily inside the async methods that need it.
 */
export interface AgentProfile {
  readonly id: AgentId;
  /** The product name, for people: `Claude Code`, `Gemini CLI`, `Codex CLI`. */
  readonly title: string;

  // ── The turn-end hook (hot path: synchronous, light) ──

  /** Validate an already JSON-parsed turn-end payload (Stop / AfterAgent). Never throws. */
  readTurnEndPayload(json: unknown): PayloadReadResult;
  /**
   * The exact stdout for a turn-end verdict: empty for a pass, one JSON object for a block. The
   * reason is already sanitised (`forModelText`) by the caller, the one boundary all reasons cross.
   */
  encodeTurnEnd(verdict: HookVerdict): string;
  /** The SessionStart answer adding `context` (non-empty, already sanitised) to the session. */
  encodeSessionStart(context: string): string;
  /** The prompt hook's answer (UserPromptSubmit / BeforeAgent) adding `context` (non-empty, sanitised) to the prompt; never a block. */
  encodePromptSubmit(context: string): string;
  /**
   * The user's own prompt in a prompt hook's payload, when the agent puts text of its own in front of
   * it (Gemini CLI 0.61 prepends a SessionStart hook's context to the session's first prompt, in the
   * BeforeAgent payload as in the transcript). Absent: the payload's prompt is the user's. The
   * estimator reads this: a resumed session's injected handoff ("Continue the plan in PLAN.md") is
   * not the user asking for the plan. Loaded by the prompt hook only: the rule is the reader
   * package's, and the profiles are on every hook's start-up path.
   */
  loadUserPromptOf?(): Promise<(prompt: string) => string>;
  /**
   * The context hooks' payload reader (SessionStart, PreCompact, UserPromptSubmit) of an agent that
   * needs its own: camelCase payloads without a transcript path (Copilot CLI), a prompt event that also
   * fires per model request (Qwen Code). Absent: the snake_case reader Claude Code, Gemini CLI and Codex
   * CLI share (`snake-case-context-payload.ts`). The monitor's lean bundle takes a reader only from
   * `post-tool-payload-readers.ts`, which lists the same functions where the post-tool payload needs one.
   */
  readonly readContextPayload?: ContextPayloadReader;
  /**
   * True when the payload's turn id (`hint.turnId`) is the turn's final identity, so the loop guard
   * may pass a stop on it before reading the transcript. False when the reader may refine it
   * (Claude reuses a prompt id for command turns) or the payload has none (Gemini).
   */
  readonly payloadTurnIdIsFinal: boolean;
  /** The agent's transcript reader; its package is imported on first call only. */
  loadTranscriptReader(): Promise<TranscriptReader>;

  // ── Set-up: install, uninstall, doctor ──

  /**
   * The hooks `install` registers: the turn-end entry FIRST, then the opt-in feature entries. Also
   * the one list of which of the agent's events each hook mode answers (`hook-entries.ts`,
   * `answersHookEvent`): the adapters name no event.
   */
  readonly hookEntries: readonly HookEntrySpec[];
  /** The unit the agent counts a handler's `timeout` in (doctor checks the value against it). */
  readonly hookTimeoutUnit: 'seconds' | 'milliseconds';
  /**
   * Whether the agent's settings take a `statusLine` command (Claude Code): `install` then adds ours
   * when the settings have none (never replacing the user's).
   */
  readonly hasStatusLine: boolean;
  /** The settings file holding the agent's hooks for `scope`. */
  settingsPath(scope: InstallScope, where: AgentLocation): string;
  /** The agent's own directory in the home; its presence says the agent has been used here. */
  homeDir(where: AgentLocation): string;
  /** The handler object written for one entry, running `command`. */
  hookHandler(entry: HookEntrySpec, command: string): Record<string, unknown>;
  /** The matcher group wrapping one handler in the event's array. */
  hookGroup(handler: Record<string, unknown>): Record<string, unknown>;
  /**
   * Files `install` puts next to the settings file (copied from `from`) and `uninstall` removes with
   * it: Pi's extension (`index.js`), which runs the hooks its `hook.json` lists. Absent for agents
   * that run hooks from their own settings.
   */
  companionFiles?(settingsPath: string, program: HookProgram): readonly CompanionFile[];
  /** What the user must know or do after an install for the hook to run. */
  afterInstallNotes(scope: InstallScope): string[];
  /** Agent-specific doctor findings once the turn-end hook is registered somewhere (trust steps…). */
  doctorFindings(input: AgentDoctorInput): Promise<DoctorFinding[]>;
  /**
   * Whether the agent records a trust entry per hook of a settings file (Codex CLI: `[hooks.state]` in
   * config.toml, keyed by the handler's place): uninstall removes ours with the hooks.
   */
  readonly hooksHaveTrustEntries: boolean;
  /**
   * The install the agent manages itself (plugin, extension): how our hook sees it, how doctor words it.
   * Undefined for an agent without one (Copilot CLI, Qwen Code, Pi): its settings entry is its only route
   * (Pi: `install` writes our extension beside that entry, see {@link AgentProfile.companionFiles}).
   */
  readonly pluginRoute?: PluginRoute;

  // ── explain / doctor: finding a session without its id ──

  /** The most recently written transcript of a session that ran in one of `search.dirs`. May throw (the caller catches). */
  findLatestTranscript(search: TranscriptSearch): Promise<string | undefined>;
  /** The session id a transcript belongs to, as the hook would receive it in `session_id`. */
  sessionIdOfTranscript(path: string): Promise<string | undefined>;
}

type Env = Readonly<Record<string, string | undefined>>;

/** A file `install` copies next to an agent's settings file (see {@link AgentProfile.companionFiles}). */
export interface CompanionFile {
  /** Where it goes (absolute). */
  readonly path: string;
  /** The shipped file it is a copy of (absolute). */
  readonly from: string;
}

/** A notice the turn-end hook adds for the user (the caller claims it once per session). */
export type TurnEndNotice = TurnEndDecision['notices'][number];

/**
 * An agent's own install of agent-checkpoint (Claude Code plugin, Gemini CLI extension, Codex CLI
 * plugin), seen from the hook it starts and from doctor.
 */
export interface PluginRoute {
  /** The route's kind (route-commands.ts); also the form of its installs and the reader of its registry (install/plugin-installs.ts). */
  readonly kind: PluginRouteKind;
  /** The variable holding the absolute root the agent starts the plugin's hooks with. */
  readonly rootEnv: string;
  /** The plugin's directory (its `bin/` and `dist/`) under that root. */
  pluginRootFrom(root: string): string;
  /**
   * The commands a person is told to run for this install, given the plugin's bin as one shell word
   * (`tool`, absolute and quoted): the agent's slash commands where it has them, else that bin.
   */
  userCommands(tool: string): PersonCommands;
  /** Whether the agent's own shell tool finds the plugin's `bin/` on its PATH (Claude Code's Bash tool does). */
  pluginBinOnAgentPath(pluginRoot: string): boolean;
  /** What a person calls it: `Claude Code plugin`, `Gemini CLI extension`. */
  readonly title: string;
  /** Doctor's words when an install's local source (marketplace folder, linked folder) is gone. */
  readonly sourceGone: {
    /** What the source is: `local marketplace`, `linked folder`. */
    readonly what: string;
    /** What that does to our hooks. */
    readonly effect: string;
    /** A failure even when the install is disabled (a linked extension has nothing else to run). */
    readonly failsWhenDisabled: boolean;
  };
  /** Doctor findings on the enabled installs beyond their bins (Codex: whether each plugin's hooks are trusted). */
  activeInstallFindings(active: readonly PluginInstall[], where: AgentLocation): Promise<DoctorFinding[]>;
  /**
   * The notice for a running hook `bin` whose install still runs though its source is gone (Codex runs
   * its cached copy). Undefined where the hook stops with its source: only doctor can report that.
   * `doctor` is the doctor command as this route spells it for a person (route-commands.ts).
   */
  installSourceNotice(bin: string, doctor: string): Promise<TurnEndNotice | undefined>;
}

/** The commands a route spells for a person (route-commands.ts adds the agent's own form of `checkpoint`). */
export type PersonCommands = Omit<UserCommands, 'agentCheckpoint'>;

/** Where an agent's files are, resolved by the caller (`install/settings-locations.ts`). */
export interface AgentLocation {
  readonly env: Env;
  /** `$HOME`, or the home given by a test. */
  readonly home: string;
  /** The directory the command runs for (`--cwd`). */
  readonly cwd: string;
  /** The repository root of `cwd` (nearest ancestor with `.git`, else `cwd`); set for the project scope. */
  readonly projectRoot: string | undefined;
}

/** What doctor learned that an agent's own checks build on. */
export interface AgentDoctorInput {
  readonly location: AgentLocation;
  /** Scopes where our turn-end hook is registered (non-empty). */
  readonly registered: readonly InstallScope[];
  /**
   * Our handlers doctor found per scope, in document order (only scopes that were readable). Given,
   * not re-parsed here: recognising our handlers needs every profile's entries, and a profile must not
   * import the registry of profiles.
   */
  readonly ours: ReadonlyMap<InstallScope, readonly HookHandlerPlace[]>;
  /** The settings path for a scope (the same the rest of doctor used). */
  readonly settingsPathOf: (scope: InstallScope) => string;
}

/** Where one of our handlers sits in a settings file (as `install/edit-agent-hooks.ts` finds it). */
export interface HookHandlerPlace {
  /** The agent's event name (`Stop`…). */
  readonly event: string;
  /** Index of the matcher group in the event's array, and of the handler in the group's `hooks`. */
  readonly group: number;
  readonly handler: number;
}

/** What a latest-transcript lookup searches. */
export interface TranscriptSearch {
  readonly env: Env;
  readonly home: string;
  /** The absolute directory explained (relative `$CODEX_HOME` resolves against it, as in install). */
  readonly cwd: string;
  /** The cwd, its real path and its repository root: sessions are often started at the root. */
  readonly dirs: readonly string[];
}
