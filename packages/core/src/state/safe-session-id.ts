import { sha256Hex } from './lazy-crypto.ts';

const SAFE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * A session id that is safe to use as part of a file name.
 *
 * Ids matching `[A-Za-z0-9._-]{1,128}` are kept as they are (agents use UUIDs), so state files stay
 * recognisable. Anything else — slashes, `..`, spaces, empty, over-long — becomes its sha256 hex
 * digest, so no id can escape the state directory. Ids made only of dots are digested too.
 */
export function toSafeSessionId(sessionId: string): string {
  if (SAFE_ID.test(sessionId) && !/^\.+$/.test(sessionId)) return sessionId;
  return sha256Hex(sessionId);
}
