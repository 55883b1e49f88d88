import { appendFileSync } from 'node:fs';
import type { ModelReply } from './scenario.ts';
import type { ConversationView } from './select-step.ts';

/** Which agent's API a request was routed to, by path. */
export type MockApi = 'anthropic' | 'gemini' | 'responses' | 'chat' | 'other';

/**
 * How the mock answered:
 * - `step`: a scenario step (its index and, for a branch step, which case matched);
 * - `fallback`: the request asked for a step past the end of the script;
 * - `side`: a request that is not a main agent turn (Gemini loop check / router, Claude requests
 *   without tools, token counting, connectivity probes), answered without consulting the script;
 * - `title`: a Codex TUI title-generation request;
 * - `unknown`: a path the mock does not serve (answered 404);
 * - `error`: the mock failed to answer (answered 500; see `error`).
 */
export type AnswerKind = 'step' | 'fallback' | 'side' | 'title' | 'unknown' | 'error';

/** One request as received and answered by the mock; one JSON line in the log file. */
export interface LoggedRequest {
  /** 1-based arrival order. */
  readonly n: number;
  readonly at: string;
  readonly method: string;
  readonly url: string;
  readonly api: MockApi;
  /** Request headers; credentials are replaced by `<redacted len=N>`. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Parsed JSON body, or the raw text when it is not JSON (undefined when empty). */
  readonly body: unknown;
  readonly answer: AnswerKind;
  readonly stepIndex?: number;
  readonly branch?: number | 'otherwise';
  /** `subagent:<index>` when a subagent script answered (see `Scenario.subagents`); absent for the main script. */
  readonly thread?: string;
  readonly view?: ConversationView;
  /** The agent-neutral reply that was encoded, for `step`/`fallback`/`title`. */
  readonly reply?: ModelReply;
  /** Tool names the request offered (native names). */
  readonly toolNames?: readonly string[];
  /** Native tool names the reply used that the request did not offer: the CLI would reject them. */
  readonly missingTools?: readonly string[];
  readonly error?: string;
}

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'cookie']);

export function redactHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [key, value] of Object.entries(headers)) {
    out[key] = SECRET_HEADERS.has(key.toLowerCase()) && typeof value === 'string' ? `<redacted len=${value.length}>` : value;
  }
  return out;
}

/** Appends synchronously, so the file is complete the moment the response has been sent. */
export function appendRequestLog(file: string | undefined, entry: LoggedRequest): void {
  if (file !== undefined) appendFileSync(file, `${JSON.stringify(entry)}\n`);
}
