import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LocateTranscriptRequest } from '@agent-checkpoint/core';

/** A session id as Copilot CLI names its directories (a UUID); anything else could name a path. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** Copilot CLI's own directory: `$COPILOT_HOME` when set (absolute), else `~/.copilot`. */
export function copilotHomeDir(where: { readonly env?: Readonly<Record<string, string | undefined>>; readonly homeDir?: string }): string {
  const explicit = where.env?.['COPILOT_HOME'];
  if (explicit !== undefined && explicit.startsWith('/')) return explicit;
  return join(where.homeDir ?? homedir(), '.copilot');
}

/** `<copilot home>/session-state/<session id>/events.jsonl`, when it is a regular file. Never throws. */
export async function locateCopilotTranscript(request: LocateTranscriptRequest): Promise<string | undefined> {
  const id = request.sessionId;
  if (id === undefined || !SESSION_ID.test(id)) return undefined;
  const path = join(copilotHomeDir(request), 'session-state', id, 'events.jsonl');
  try {
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}
