import { isAbsolute } from 'node:path';
// zod/mini: the same validation at a fraction of classic zod's load time (this runs on every turn).
import * as z from 'zod/mini';

/**
 * The Codex `notify` event, normalized. Codex runs the configured `notify` argv once per completed
 * turn and appends one JSON argument (codex-cli 0.169):
 * `{"type":"agent-turn-complete","thread-id","turn-id","cwd","client","input-messages":[…],"last-assistant-message"}`.
 */
export interface TurnCompleteEvent {
  /** Codex thread id (a UUIDv7; equals the rollout's `session_id`). */
  readonly threadId: string;
  /** Id of the turn that just completed. */
  readonly turnId: string;
  /** Session working directory (absolute). */
  readonly cwd: string;
  /** `codex-tui` or `codex_exec`, when present. */
  readonly client?: string;
  /**
   * All user messages of the thread so far — cumulative, not only this turn's. The last one is the
   * message that opened this turn (or a steer typed during it).
   */
  readonly inputMessages: readonly string[];
  readonly lastAssistantMessage?: string;
}

/** What the notify argument turned out to be. */
export type NotifyPayloadResult =
  | { readonly kind: 'turn-complete'; readonly event: TurnCompleteEvent }
  /** Valid JSON of another event type, or a title-generation thread: nothing to do, not an error. */
  | { readonly kind: 'ignored'; readonly reason: string }
  /** Missing, not JSON, or missing required fields: a diagnostic, nothing is typed. */
  | { readonly kind: 'invalid'; readonly reason: string };

/**
 * The first words of the prompt Codex's TUI sends on its hidden per-message title-generation thread.
 * That thread has its own thread id, writes no rollout, and fires notify like a real turn.
 */
export const TITLE_THREAD_PROMPT_PREFIX = 'Generate a concise, single-line task title';

/**
 * Thread ids end up in a file-name pattern when the rollout is located, so only the characters of a
 * UUID-like id are accepted (Codex uses UUIDv7).
 */
const THREAD_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

// Loose: Codex adds fields over time; only what we use is checked.
const TurnCompleteSchema = z.looseObject({
  type: z.literal('agent-turn-complete'),
  'thread-id': z.string().check(z.regex(THREAD_ID_PATTERN, 'not a thread id')),
  'turn-id': z.string().check(z.minLength(1), z.maxLength(256)),
  cwd: z.string().check(z.refine((p) => isAbsolute(p), 'not an absolute path')),
  client: z.optional(z.string()),
  'input-messages': z.optional(z.array(z.string())),
  'last-assistant-message': z.nullish(z.string()),
});

const TypeOnlySchema = z.looseObject({ type: z.string() });

/** Parse the JSON argument Codex appends to the notify argv. Never throws. */
export function readNotifyPayload(raw: string | undefined): NotifyPayloadResult {
  if (raw === undefined || raw.trim() === '') return { kind: 'invalid', reason: 'no notify payload argument' };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { kind: 'invalid', reason: `notify payload is not JSON (${describeRaw(raw)})` };
  }
  const typed = TypeOnlySchema.safeParse(json);
  if (!typed.success) return { kind: 'invalid', reason: 'notify payload is not an object with a "type"' };
  if (typed.data.type !== 'agent-turn-complete') {
    return { kind: 'ignored', reason: `notify event type "${typed.data.type.slice(0, 64)}" is not handled` };
  }
  const parsed = TurnCompleteSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'payload';
    return { kind: 'invalid', reason: `agent-turn-complete payload: ${where}: ${issue?.message ?? 'invalid'}` };
  }
  const data = parsed.data;
  const inputMessages = data['input-messages'] ?? [];
  if (isTitleThread(inputMessages)) {
    return { kind: 'ignored', reason: 'title-generation thread' };
  }
  const last = data['last-assistant-message'];
  return {
    kind: 'turn-complete',
    event: {
      threadId: data['thread-id'],
      turnId: data['turn-id'],
      cwd: data.cwd,
      ...(data.client !== undefined ? { client: data.client } : {}),
      inputMessages,
      ...(typeof last === 'string' ? { lastAssistantMessage: last } : {}),
    },
  };
}

/** True for the TUI's hidden title-generation thread (its only input is the title prompt). */
export function isTitleThread(inputMessages: readonly string[]): boolean {
  return inputMessages[0]?.startsWith(TITLE_THREAD_PROMPT_PREFIX) === true;
}

function describeRaw(raw: string): string {
  return `${raw.length} chars, starts ${JSON.stringify(raw.slice(0, 24))}`;
}
