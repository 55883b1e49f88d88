import { setTimeout as delay } from 'node:timers/promises';

export interface WaitOptions {
  readonly timeoutMs: number;
  /** Poll interval; the condition is also checked once immediately. */
  readonly intervalMs?: number;
  /** Included in the timeout error ("timed out after 5000 ms waiting for <what>"). */
  readonly what: string;
}

/**
 * Polls `probe` until it returns a value other than undefined/false, or fails after the
 * deadline. This is the only way the harness waits: never a bare sleep.
 */
export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, options: WaitOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  const interval = options.intervalMs ?? 100;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const cause = lastError === undefined ? '' : ` (last error: ${String(lastError)})`;
      throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.what}${cause}`);
    }
    await delay(Math.min(interval, Math.max(1, deadline - Date.now())));
  }
}
