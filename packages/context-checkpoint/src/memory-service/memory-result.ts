/**
 * Results of the claude-mem client. Like the tracker, nothing here throws: claude-mem is an optional
 * companion, and its worker being down is the normal case on most machines.
 */

/** Why a claude-mem call failed. */
export type MemoryFailure =
  /** Nothing listens on the worker's port (connection refused): claude-mem not installed or not running. */
  | { readonly kind: 'unavailable'; readonly message: string }
  /** Timeout, abort, reset, a 5xx, or a body too large. */
  | { readonly kind: 'network'; readonly message: string }
  /** The worker rejected the request (HTTP 4xx, e.g. its `ValidationError`). */
  | { readonly kind: 'rejected'; readonly message: string }
  /** The worker answered with something its routes do not produce. */
  | { readonly kind: 'invalid-response'; readonly message: string };

export type MemoryResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: MemoryFailure };
