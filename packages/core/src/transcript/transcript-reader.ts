import type { AgentId } from '../agent-id.ts';
import type { TokenUsage, TurnTimeline } from '../timeline/turn-timeline.ts';
import type { CheckpointMessageTexts } from './delivered-message.ts';
import { DEFAULT_TRANSCRIPT_MAX_BYTES } from './transcript-max-bytes.ts';

// Part of the reader's contract (`ReadTurnRequest.maxBytes`); defined in a leaf the config schema imports.
export { DEFAULT_TRANSCRIPT_MAX_BYTES };

/**
 * What the caller knows about the turn from the hook payload or notify event. Every field is
 * optional: readers fall back to finding the last genuine user prompt.
 */
export interface TurnHint {
  /** The agent's id of the current turn: Claude `prompt_id`, Codex `turn_id`. */
  readonly turnId?: string;
  /** The original prompt text (Gemini `prompt`; Codex notify `input-messages` last item). */
  readonly prompt?: string;
  /**
   * The final assistant text from the payload (Claude/Codex `last_assistant_message`). Claude writes
   * its transcript on a timer, so the reader may wait briefly until the file contains it.
   */
  readonly lastAssistantMessage?: string;
}

/** Arguments of {@link TranscriptReader.readTurn}. */
export interface ReadTurnRequest {
  /** Absolute path of the transcript file. */
  readonly transcriptPath: string;
  readonly hint?: TurnHint;
  /**
   * Our own message prefix. User-role messages starting with it are our injected checkpoints: never a
   * turn boundary, counted in {@link TurnTimeline.checkpointsDelivered}.
   */
  readonly checkpointPrefix: string;
  /**
   * Digests (`deliveredMessageDigest`) of the checkpoints delivered in this session, from the
   * session state. When given, a plain user message counts as our checkpoint only if it is one of
   * them: a prompt the user starts with our prefix is a prompt. Hook feedback the agent marks as such
   * (Claude `Stop hook feedback:`, Codex `<hook_prompt>`) is ours by structure. When absent (no
   * delivery recorded yet, a lost state directory, callers that keep none), a plain message is ours
   * only when it has the whole structure of a composed message (`isComposedCheckpoint`, with
   * {@link checkpointMessages}), never by the prefix alone; only a caller that gives neither (it knows
   * no configuration) has the prefix decide.
   */
  readonly deliveredDigests?: readonly string[];
  /**
   * The configured message texts (`config.messages`) our checkpoints are composed of, for the
   * structure test when there are no {@link deliveredDigests}. A key it lacks takes the built-in
   * text; the prefix is always {@link checkpointPrefix}. The hook and the tmux route pass them
   * (through `getCheckpoint`).
   */
  readonly checkpointMessages?: Partial<CheckpointMessageTexts>;
  /** Hard cap on bytes read from the end of the file. Default {@link DEFAULT_TRANSCRIPT_MAX_BYTES}. */
  readonly maxBytes?: number;
  /**
   * Longest time to wait for a lagging transcript write (Claude's 100 ms flush timer). 0 disables
   * waiting. Readers of formats that are complete when the hook runs ignore it.
   */
  readonly flushWaitMs?: number;
  /** Aborts waiting and reading; the reader then returns what it has, never throws. */
  readonly signal?: AbortSignal;
  /**
   * The hook's deadline (`Date.now()` clock, ms). Parsing is synchronous, so a timer-based `signal`
   * cannot interrupt it; readers check this clock while parsing and return what they have, with a
   * `deadline` diagnostic, once it passes (a tail of 170k tiny lines must not hold the hook up).
   */
  readonly deadlineAt?: number;
}

/** First window of {@link TranscriptReader.readLatestUsage}: the newest usage record is almost always in it. */
export const LATEST_USAGE_INITIAL_BYTES = 64 * 1024;
/**
 * Default byte cap of {@link TranscriptReader.readLatestUsage}. Larger than the turn read's cap
 * because the read stops at the first usage record: the cap is only reached when a single huge tool
 * result (a long file read) sits between the end of the file and the last model call.
 */
export const DEFAULT_LATEST_USAGE_MAX_BYTES = 1024 * 1024;
/** Default number of usage records in {@link LatestUsage.history} (as many as `TurnTimeline.usageHistory`). */
export const DEFAULT_LATEST_USAGE_HISTORY = 20;

/** Arguments of {@link TranscriptReader.readLatestUsage}. */
export interface ReadLatestUsageRequest {
  /** Absolute path of the transcript file (untrusted: any path, any content). */
  readonly transcriptPath: string;
  /**
   * Hard cap on bytes read from the end of the file. Default {@link DEFAULT_LATEST_USAGE_MAX_BYTES}.
   * The read starts with the last {@link LATEST_USAGE_INITIAL_BYTES} and goes further back, 64 KiB at a
   * time, only while fewer records than wanted were found.
   */
  readonly maxBytes?: number;
  /** Aborts reading; the reader then returns what it found, or undefined. */
  readonly signal?: AbortSignal;
  /** The hook's deadline (`Date.now()` clock, ms), checked while parsing like {@link ReadTurnRequest.deadlineAt}. */
  readonly deadlineAt?: number;
  /**
   * How many records {@link LatestUsage.history} should hold at most, the newest included. Default
   * {@link DEFAULT_LATEST_USAGE_HISTORY}; clamped to 1…1000. The history comes from the bytes read to
   * find the newest record (the 64 KiB-aligned window that holds it): asking for more never makes the
   * read longer than one more chunk (see `latestUsageHistoryFloor`).
   */
  readonly history?: number;
}

/** What {@link TranscriptReader.readLatestUsage} found. */
export interface LatestUsage {
  /**
   * The newest usage record: field for field what `readTurn().tokenUsage` reports when that turn is
   * the last one in the file (both come from the reader's one usage extraction).
   */
  readonly usage: TokenUsage;
  /**
   * Up to `request.history` records, oldest first, ending with {@link usage} (the shape of
   * `TurnTimeline.usageHistory`, ready for `estimateContextGrowth`). May reach into earlier turns;
   * holds fewer records when the window of the newest record, the start of the file or a reset of the
   * agent's history came first.
   */
  readonly history: readonly TokenUsage[];
  readonly model?: string;
  /** ISO-8601 time of {@link usage}. */
  readonly timestamp?: string;
  /** Bytes actually read and the file's size, so callers (and the conformance suite) can see the read stayed bounded. */
  readonly readStats: { readonly bytesRead: number; readonly fileBytes: number };
}

/** Arguments of {@link TranscriptReader.locateTranscript}. */
export interface LocateTranscriptRequest {
  /** The agent's session id (Claude `session_id`, Gemini `session_id`, Codex thread id). */
  readonly sessionId?: string;
  /** The session's working directory. */
  readonly cwd?: string;
  /** The user's home directory (defaults to `os.homedir()`); tests point it at a temp dir. */
  readonly homeDir?: string;
  /** Environment to consult for agent-specific homes (`CODEX_HOME`, `GEMINI_CLI_HOME`…). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The one interface every transcript package implements. A reader turns one agent's transcript file
 * into a {@link TurnTimeline} for the turn that just ended.
 *
 * Contract (checked by the shared conformance suite in `@agent-checkpoint/core/conformance`):
 * - never throws and never rejects: any failure is `hasData: false` plus a diagnostic;
 * - reads backwards from the end of the file and never more than `maxBytes`, so memory and time do
 *   not grow with the file size;
 * - pairs results to calls by id, never by position;
 * - keeps the native tool name next to the unified kind;
 * - does not count its own injected checkpoints, tool results or CLI bookkeeping as turn boundaries.
 */
export interface TranscriptReader {
  readonly specificationVersion: 'transcript-reader-v1';
  readonly agent: AgentId;
  /** Read the current (most recent) turn. */
  readTurn(request: ReadTurnRequest): Promise<TurnTimeline>;
  /**
   * Find the transcript of a session when the caller has no path (Codex notify gives only a thread
   * id). Resolves to undefined when nothing is found. Never throws.
   */
  locateTranscript(request: LocateTranscriptRequest): Promise<string | undefined>;
  /**
   * The newest token-usage record and a few before it, read from the file's tail only: the cheap read
   * a hook running after every tool call can afford (the monitor during the turn). Optional to
   * implement; every reader of this repository implements it and passes the shared latest-usage
   * conformance suite. Resolves to undefined when the file is missing, unreadable, not this agent's
   * format, or holds no usage record within the cap. Never throws and never rejects.
   */
  readLatestUsage?(request: ReadLatestUsageRequest): Promise<LatestUsage | undefined>;
}
