import { escapeControls } from '@agent-checkpoint/core';

/** One HTTP exchange as the tracker and memory clients see it: status, headers and a size-capped body. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

/** Why no usable answer came back (before any interpretation of the body). */
export type HttpProblem =
  | { readonly kind: 'network'; readonly message: string }
  | { readonly kind: 'rate-limited'; readonly message: string; readonly retryAfterMs?: number };

/** Options of {@link requestWithRetry}. */
export interface RequestWithRetryOptions {
  readonly url: string;
  readonly init: { readonly method: 'GET' | 'POST'; readonly headers: Record<string, string>; readonly body?: string };
  /** Absolute time (ms since epoch) by which the whole call, retry and wait included, must end. */
  readonly deadlineAt: number;
  /**
   * Says whether an answer means "try again later" (beyond HTTP 429 and 5xx, which always do): Linear
   * reports rate limiting as a GraphQL error with `extensions.code: RATELIMITED`, not always as a 429.
   */
  readonly isRetryable?: (answer: HttpAnswer) => boolean;
  /** Cap on the response body; a longer body is a network problem. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  readonly signal?: AbortSignal;
  /** Injected for tests only; default the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Clock for deadline arithmetic. */
  readonly now?: () => number;
}

const DEFAULT_MAX_BODY = 1024 * 1024;
/** Wait before the retry when the server gave no Retry-After. */
const DEFAULT_RETRY_WAIT_MS = 250;
/** The retry is only worth it when at least this much time is left for it after the wait. */
const MIN_ATTEMPT_MS = 200;

/**
 * Send one request, and retry it once when the server says "later" (429, 5xx, or `isRetryable`),
 * waiting what `Retry-After` (seconds or an HTTP date) or Linear's `X-RateLimit-Requests-Reset`
 * (epoch ms) asks — but only when that wait plus a usable attempt fits before `deadlineAt`; otherwise
 * the problem is returned at once (a hook never outstays its budget). Every attempt is aborted at the
 * deadline. Never throws: the answer after the last attempt, or a problem.
 */
export async function requestWithRetry(options: RequestWithRetryOptions): Promise<HttpAnswer | HttpProblem> {
  const now = options.now ?? Date.now;
  const first = await attempt(options, now);
  if (!('status' in first)) return first;
  if (!retryable(first, options)) return first;
  const waitMs = retryWaitMs(first.headers, now()) ?? DEFAULT_RETRY_WAIT_MS;
  if (now() + waitMs + MIN_ATTEMPT_MS > options.deadlineAt) return asProblem(first, waitMs);
  if (!(await sleep(waitMs, options.signal))) return { kind: 'network', message: 'aborted while waiting to retry' };
  const second = await attempt(options, now);
  if (!('status' in second)) return second;
  return retryable(second, options) ? asProblem(second, retryWaitMs(second.headers, now())) : second;
}

function retryable(answer: HttpAnswer, options: RequestWithRetryOptions): boolean {
  return answer.status === 429 || answer.status >= 500 || (options.isRetryable?.(answer) ?? false);
}

function asProblem(answer: HttpAnswer, retryAfterMs: number | undefined): HttpProblem {
  if (answer.status >= 500) return { kind: 'network', message: `server error HTTP ${answer.status}` };
  return retryAfterMs === undefined
    ? { kind: 'rate-limited', message: `rate limited (HTTP ${answer.status})` }
    : { kind: 'rate-limited', message: `rate limited (HTTP ${answer.status})`, retryAfterMs };
}

async function attempt(options: RequestWithRetryOptions, now: () => number): Promise<HttpAnswer | HttpProblem> {
  const remaining = options.deadlineAt - now();
  if (remaining <= 0) return { kind: 'network', message: 'deadline passed before the request' };
  // One controller for the deadline and the caller's signal (AbortSignal.any needs Node 20.3).
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), remaining);
  const onAbort = (): void => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) controller.abort();
  try {
    const init = { ...options.init, signal: controller.signal, redirect: 'error' as const };
    const response = await (options.fetch ?? fetch)(options.url, init);
    const body = await readCapped(response, options.maxBodyBytes ?? DEFAULT_MAX_BODY);
    if (body === undefined) return { kind: 'network', message: 'response body too large' };
    return { status: response.status, headers: response.headers, body };
  } catch (error) {
    if (controller.signal.aborted) {
      return { kind: 'network', message: options.signal?.aborted ? 'aborted' : `timed out after ${remaining} ms` };
    }
    return { kind: 'network', message: describeError(error) };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<string | undefined> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Milliseconds the server asked to wait, from `Retry-After` or `X-RateLimit-Requests-Reset`, capped at 1 h. */
export function retryWaitMs(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return clampWait(Number(retryAfter) * 1000);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return clampWait(at - nowMs);
  }
  const reset = headers.get('x-ratelimit-requests-reset')?.trim();
  if (reset && /^\d+$/.test(reset)) return clampWait(Number(reset) - nowMs);
  return undefined;
}

function clampWait(ms: number): number {
  return Math.min(Math.max(0, Math.ceil(ms)), 3_600_000);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A short, single-line, control-free description of a thrown value (messages reach stderr). */
export function describeError(error: unknown): string {
  const err = error as { message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const base = typeof err?.message === 'string' ? err.message : String(error);
  const cause = err?.cause && typeof err.cause === 'object' ? (err.cause.code ?? err.cause.message) : undefined;
  return safeText(typeof cause === 'string' && !base.includes(cause) ? `${base} (${cause})` : base);
}

/** Server-provided text made safe for a one-line diagnostic: controls escaped, length capped. */
export function safeText(text: string, max = 300): string {
  const flat = escapeControls(text, { keepLines: false });
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
