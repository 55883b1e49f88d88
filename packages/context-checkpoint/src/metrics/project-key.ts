import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * A short stable key for a project, used to name its files in the state directory
 * (`<stateDir>/estimates/<key>.jsonl`, `<stateDir>/metrics/<key>.jsonl`): the first 16 hex digits of
 * the SHA-256 of the project root's real path. Hashing keeps untrusted directory names out of file
 * names; the real path makes a symlinked checkout and its target one project. A root that cannot be
 * resolved (removed meanwhile) is hashed as given, absolute.
 */
export function projectKey(projectRoot: string): string {
  let path = resolve(projectRoot);
  try {
    path = realpathSync(path);
  } catch {
    // Keep the resolved path: the key must not depend on the root existing.
  }
  return createHash('sha256').update(path, 'utf8').digest('hex').slice(0, 16);
}
