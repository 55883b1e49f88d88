import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { recordWrittenHandoff } from '@agent-checkpoint/context-checkpoint/test-support';

/**
 * Write a handoff as this installation leaves one: the file under the repository, and its record
 * (path, digest) in the state directory. Only recorded handoffs are resumed (issue 23); a file
 * written without the record is a foreign handoff, as one committed in a clone is.
 */
export function writeOwnHandoff(stateDir: string, repo: string, relativePath: string, text: string): string {
  const path = join(repo, relativePath);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  recordWrittenHandoff(stateDir, join(realpathSync(repo), relativePath), text, new Date());
  return path;
}
