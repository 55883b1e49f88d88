import { stat } from 'node:fs/promises';
import { AGENT_IDS, type AgentId, type LatestUsage } from '@agent-checkpoint/core';
import { findLatestTranscript, sessionIdOfTranscript } from '../explain/find-latest-transcript.ts';
import { loadTranscriptReader } from '../load-transcript-reader.ts';

/** The newest session of any agent in a directory, and its newest usage records. */
export interface CurrentSessionUsage {
  readonly agent: AgentId;
  readonly transcript: string;
  readonly sessionId?: string;
  /** Undefined when the transcript holds no usage record yet. */
  readonly latest?: LatestUsage;
}

/**
 * The newest transcript (by modification time) among the agents' sessions for `cwd` (each profile's
 * latest-transcript lookup), read from its tail only (`readLatestUsage`, up to 20 records for the
 * growth). Undefined when no agent has a session here.
 */
export async function readCurrentSessionUsage(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<CurrentSessionUsage | undefined> {
  const found = await Promise.all(
    AGENT_IDS.map(async (agent) => {
      const transcript = await findLatestTranscript(agent, cwd, env);
      if (transcript === undefined) return undefined;
      const info = await stat(transcript).catch(() => undefined);
      return info === undefined ? undefined : { agent, transcript, mtimeMs: info.mtimeMs };
    }),
  );
  const newest = found.filter((c) => c !== undefined).sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
  if (newest === undefined) return undefined;
  const reader = await loadTranscriptReader(newest.agent);
  const [latest, sessionId] = await Promise.all([
    reader.readLatestUsage?.({ transcriptPath: newest.transcript, history: 20 }),
    sessionIdOfTranscript(newest.agent, newest.transcript).catch(() => undefined),
  ]);
  return { agent: newest.agent, transcript: newest.transcript, ...(sessionId ? { sessionId } : {}), ...(latest ? { latest } : {}) };
}
