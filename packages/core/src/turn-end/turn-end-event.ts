import type { ConfigSectionSource } from '../config/config-section.ts';
import type { AgentId } from '../agent-id.ts';
import type { ResolvedConfig } from '../config/config-schema.ts';
import type { OffSwitchState } from '../state/off-switches.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import type { LocateTranscriptRequest, TranscriptReader, TurnHint } from '../transcript/transcript-reader.ts';
import type { TurnEndExtension } from './turn-end-extension.ts';
import type { UserCommands } from '../engine/user-commands.ts';

/**
 * Where the turn's transcript is. `path`: the route has it (hook payload, explain `--transcript`,
 * the rollout tmux proved its pane runs); `locate`: the reader finds it from the session id and cwd;
 * `none`: file-based instructions only. A path that is not a regular file (a FIFO would block the
 * synchronous tail read) is dropped with a diagnostic; a missing one is kept so the reader says so.
 */
export type TurnEndTranscript =
  | { readonly kind: 'path'; readonly path: string }
  | { readonly kind: 'locate'; readonly request: LocateTranscriptRequest }
  | { readonly kind: 'none' };

/** Where the pipeline writes its notes: the route's logger (warn = the user should know; debug = the debug log). */
export interface TurnEndLog {
  warn(line: string): void;
  debug(line: string): void;
}

/**
 * The extensions of a turn end: a list, or a function of the loaded configuration, so a route can pass
 * the opt-ins only when the configuration turns them on (and import them only then).
 */
export type TurnEndExtensions =
  | readonly TurnEndExtension[]
  | ((config: ResolvedConfig) => readonly TurnEndExtension[] | Promise<readonly TurnEndExtension[]>);

/**
 * A turn end, normalised from any route's payload (hook stdin, Codex notify argv, `explain` flags):
 * the one input of {@link runTurnEnd} and {@link previewTurnEnd}. Agent-specific facts arrive as plain
 * values the route's agent profile computed (`turnIdIsFinal`, `turnKey`), so the pipeline has no
 * `switch (agent)`.
 */
export interface TurnEndEvent {
  readonly agent: AgentId;
  /** The session's working directory (already checked usable by the route). */
  readonly cwd: string;
  /**
   * The session's state key (loop guard, delivered digests, off switch, escape-hatch text). Undefined
   * only for `explain` without a session: nothing per session is read then, and a block cannot be claimed.
   */
  readonly sessionId: string | undefined;
  readonly transcript: TurnEndTranscript;
  /** The agent's transcript reader, created only when the pipeline gets that far. */
  readonly reader: () => TranscriptReader | Promise<TranscriptReader>;
  /** What the payload says about the turn (its id, prompt, last assistant message). */
  readonly hint: TurnHint;
  /**
   * True when `hint.turnId` is the turn's final identity (Codex `turn_id`): the loop guard may then
   * pass the stop before the transcript is read. False when the reader may refine it (Claude reuses a
   * `prompt_id` for a command turn) or the agent sends none.
   */
  readonly turnIdIsFinal: boolean;
  /** The identity the loop guard counts blocks under, once the transcript was read (the route's rule). */
  readonly turnKey: (timeline: TurnTimeline | undefined) => string | undefined;
  /** The off switches, when the route already read them (`checkTurnEndEarly`); else the pipeline reads them. */
  readonly offSwitch?: OffSwitchState;
  /**
   * The route has no escape hatch (tmux: no `stop_hook_active`), so it must recognise the turn that
   * answers its own checkpoint: `hint.prompt` (then the transcript's last user message) being a
   * checkpoint this session delivered (recorded digest) or one with our whole composed structure
   * passes as `own-checkpoint-turn`; an empty `messages.prefix` makes that impossible and passes as
   * `own-checkpoint-unrecognisable`.
   */
  readonly recogniseOwnCheckpoints?: boolean;
  /**
   * The route's last word before git and the transcript are read, given the transcript path found
   * (undefined: none). A returned string passes the turn end as `route-refused` with that detail
   * (tmux: no rollout, or the pane is not proven to run this thread). Not called by a preview.
   */
  readonly admitTranscript?: (path: string | undefined) => Promise<string | undefined>;
  /**
   * A FIFO, socket or device as a configuration path: `pass` (default; the hook) lets the stop pass
   * with a warning (`config-unusable`), before anything reads it; `defaults` (tmux) ignores that file
   * with its one-line diagnostic, like any broken file, and the rest of the configuration decides
   * (`loadConfig` opens it non-blocking and never waits on it). The routes differed here before the
   * pipeline; both behaviours are kept, and tested, until they are unified.
   */
  readonly unusableConfigPath?: 'pass' | 'defaults';
  /** Epoch ms by which git and the transcript must be read (`Date.now()` clock); the claim comes after. */
  readonly deadlineAt: number;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => Date;
  /** The state directory (`resolveStateDir`): session state, switches, lock. */
  readonly stateDir: string;
  readonly extensions: TurnEndExtensions;
  /**
   * The config sections the extensions read (`config-section.ts`), from the extensions' package
   * manifest: loaded only when a configuration file sets one of their keys. Without it such a key is
   * an unknown key and the file is ignored.
   */
  readonly configSections?: ConfigSectionSource;
  readonly log?: TurnEndLog;
  /**
   * How a person runs our commands where this hook runs (the escape hatch's `{personOffCommand}`, the
   * notices' `doctor` and `trust`): the route decides; default the CLI on the PATH.
   */
  readonly commands?: UserCommands;
}
