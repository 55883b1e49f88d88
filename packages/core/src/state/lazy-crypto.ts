import { createRequire } from 'node:module';

type Crypto = typeof import('node:crypto');
let crypto: Crypto | undefined;

/**
 * `node:crypto`, loaded on first use only.
 *
 * Why lazy: `node:crypto` is 36 internal modules, about 2.5 ms of a 25 ms node start, and the monitor
 * after every tool call hashes or writes only in rare cases (an unsafe session id, a project off
 * switch that exists, a state write that is due). A static import would load it at the bundle's start
 * on every call. `createRequire` on the node binary's path resolves a built-in without touching the
 * file system, in the ES modules of the sources and in the CommonJS bundles alike.
 */
function loadCrypto(): Crypto {
  crypto ??= createRequire(process.execPath)('node:crypto') as Crypto;
  return crypto;
}

/** The sha256 hex digest of `text` (UTF-8). */
export function sha256Hex(text: string): string {
  return loadCrypto().createHash('sha256').update(text, 'utf8').digest('hex');
}

/** `bytes` random bytes as hex (temporary file names). */
export function randomHex(bytes: number): string {
  return loadCrypto().randomBytes(bytes).toString('hex');
}
