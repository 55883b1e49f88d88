import type { AgentId, TranscriptReader } from '@agent-checkpoint/core';
import type { DoctorFinding } from '@agent-checkpoint/setup-kit';
import type { PayloadReadResult } from '../hook-event.ts';
import type { HookVerdict } from '../hook-verdict.ts';
import type { HookEntrySpec } from '../install/hook-entries.ts';
import type { InstallScope } from '../install/settings-locations.ts';

/**
 * Everything delivery-hook knows about one agent CLI, in one object: the rest of the package asks the
 * profile and never branches on the agent id (`no-agent-switch.test.ts` enforces it). Adding an agent
 * is one profile file plus one entry in `profiles.ts` (a `Record<AgentId, AgentProfile>`, so a new
 * `AgentId` does not compile until its profile exists).
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
   * True when the payload's turn id (`hint.turnId`) is the turn's final identity, so the loop guard
   * may pass a stop on it before reading the transcript. False when the reader may refine it
   * (Claude reuses a prompt id for command turns) or the payload has none (Gemini).
   */
  readonly payloadTurnIdIsFinal: boolean;
  /** The agent's transcript reader; its package is imported on first call only. */
  loadTranscriptReader(): Promise<TranscriptReader>;

  // ── Set-up: install, uninstall, doctor ──

  /** The hooks `install` registers: the turn-end entry FIRST, then the opt-in feature entries. */
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
  /** What the user must know or do after an install for the hook to run. */
  afterInstallNotes(scope: InstallScope): string[];
  /** Agent-specific doctor findings once the turn-end hook is registered somewhere (trust steps…). */
  doctorFindings(input: AgentDoctorInput): Promise<DoctorFinding[]>;

  // ── explain / doctor: finding a session without its id ──

  /** The most recently written transcript of a session that ran in one of `search.dirs`. May throw (the caller catches). */
  findLatestTranscript(search: TranscriptSearch): Promise<string | undefined>;
  /** The session id a transcript belongs to, as the hook would receive it in `session_id`. */
  sessionIdOfTranscript(path: string): Promise<string | undefined>;
}

type Env = Readonly<Record<string, string | undefined>>;

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
  /** The settings text read per scope (only scopes that were readable). */
  readonly texts: ReadonlyMap<InstallScope, string>;
  /** The settings path for a scope (the same the rest of doctor used). */
  readonly settingsPathOf: (scope: InstallScope) => string;
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
