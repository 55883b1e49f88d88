import { createRequire } from 'node:module';

type CreateHash = typeof import('node:crypto').createHash;
let createHash: CreateHash | undefined;

/**
 * The sha256 hex digest of `text` (UTF-8), loading `node:crypto` on first use only.
 *
 * Why lazy: `node:crypto` is 36 internal modules, about 2.5 ms of a 25 ms node start, and the monitor
 * after every tool call hashes only in rare cases (an unsafe session id, a project off switch that
 * exists). A static import would load it at the bundle's start on every call. `createRequire` on the
 * node binary's path resolves a built-in without touching the file system, in the ES modules of the
 * sources and in the CommonJS bundles alike.
 */
export function sha256Hex(text: string): string {
  createHash ??= (createRequire(process.execPath)('node:crypto') as typeof import('node:crypto')).createHash;
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
