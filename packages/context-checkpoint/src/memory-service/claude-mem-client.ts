import { z } from 'zod';
import { requestWithRetry, safeText } from '../tracker/http-with-retry.ts';
import {
  CHECKPOINT_CONCEPT,
  CHECKPOINT_TITLE_PREFIX,
  checkpointObservationText,
  checkpointObservationTitle,
  checkpointSearchQuery,
  type CheckpointObservation,
} from './checkpoint-observation.ts';
import type { MemoryFailure, MemoryResult } from './memory-result.ts';

/**
 * A small client of claude-mem's local worker HTTP API (github.com/thedotmack/claude-mem, Apache-2.0;
 * request and answer shapes read from `src/services/worker/http/routes/MemoryRoutes.ts`,
 * `SearchRoutes.ts` and `src/services/worker/SearchManager.ts` at commit e2d1df569a8f, 2026-08-19).
 * Endpoints used:
 * - `POST /api/memory/save` `{ text, title?, project?, metadata? }` (strict) → `{ success, id, title, project, message }`;
 * - `GET /api/search?query&type=observations&format=json&project&limit` → `{ observations: [...], sessions, prompts, totalResults, query }`;
 * - `GET /api/context/recent?project&limit` and `GET /api/timeline?anchor&depth_before&depth_after&project`
 *   → MCP-style `{ content: [{ type: 'text', text }] }`.
 */
export interface ClaudeMemClient {
  /** Record a checkpoint (MEM-001/002): title `Context Checkpoint L2 at 87% - ANV-123`, concept `checkpoint`. */
  saveCheckpoint(observation: CheckpointObservation, project: string): Promise<MemoryResult<{ readonly id: number; readonly title: string }>>;
  /** Recent sessions of the project as Markdown, for an iteration's prompt (MEM-004). */
  recentContext(project: string, limit?: number): Promise<MemoryResult<string>>;
  /** What happened around an observation, e.g. the checkpoint's (MEM-005). */
  timeline(anchor: number, project: string, depth?: { readonly before?: number; readonly after?: number }): Promise<MemoryResult<string>>;
  /** Earlier checkpoint observations of the project, newest first (MEM-006). */
  searchCheckpoints(project: string, options?: { readonly level?: 'L1' | 'L2' | 'L3'; readonly limit?: number }): Promise<MemoryResult<readonly CheckpointHit[]>>;
}

/** One checkpoint observation found by a search. */
export interface CheckpointHit {
  readonly id: number;
  readonly title: string;
  readonly createdAtEpoch: number;
}

export interface ClaudeMemClientOptions {
  /** From `resolveClaudeMemWorkerUrl` (loopback only). */
  readonly baseUrl: string;
  /** Budget of one call. Short by default: the worker is local. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Injected for tests only. */
  readonly fetch?: typeof fetch;
}

const saveAnswer = z.looseObject({ success: z.literal(true), id: z.number().int(), title: z.string() });
const textAnswer = z.looseObject({ content: z.array(z.looseObject({ type: z.string(), text: z.string() })).min(1), isError: z.boolean().optional() });
const searchAnswer = z.looseObject({
  observations: z.array(z.looseObject({ id: z.number().int(), title: z.string().nullable(), created_at_epoch: z.number() })),
});

/** Create the client. Never throws; see {@link MemoryFailure} for what a call can meet. */
export function createClaudeMemClient(options: ClaudeMemClientOptions): ClaudeMemClient {
  const timeoutMs = options.timeoutMs ?? 2_000;

  async function call<T>(path: string, schema: z.ZodType<T>, body?: unknown): Promise<MemoryResult<T>> {
    const answer = await requestWithRetry({
      url: `${options.baseUrl}${path}`,
      init:
        body === undefined
          ? { method: 'GET', headers: { accept: 'application/json' } }
          : { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) },
      deadlineAt: Date.now() + timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    if (!('status' in answer)) {
      const refused = /ECONNREFUSED/.test(answer.message);
      return failed(refused ? { kind: 'unavailable', message: `claude-mem worker not running at ${options.baseUrl}` } : { kind: 'network', message: answer.message });
    }
    if (answer.status >= 400) return failed({ kind: answer.status >= 500 ? 'network' : 'rejected', message: `${path.split('?')[0]}: HTTP ${answer.status} ${safeText(answer.body, 200)}` });
    let json: unknown;
    try {
      json = JSON.parse(answer.body);
    } catch {
      return failed({ kind: 'invalid-response', message: `${path.split('?')[0]}: not JSON` });
    }
    const parsed = schema.safeParse(json);
    return parsed.success ? { ok: true, value: parsed.data } : failed({ kind: 'invalid-response', message: `${path.split('?')[0]}: unexpected shape` });
  }

  const text = async (path: string): Promise<MemoryResult<string>> => {
    const result = await call(path, textAnswer);
    if (!result.ok) return result;
    if (result.value.isError === true) return failed({ kind: 'rejected', message: safeText(result.value.content[0]?.text ?? 'error', 200) });
    return { ok: true, value: result.value.content.map((part) => part.text).join('\n') };
  };

  return {
    async saveCheckpoint(observation, project) {
      const title = checkpointObservationTitle(observation);
      const metadata = {
        concepts: [CHECKPOINT_CONCEPT],
        level: observation.level,
        ...(observation.percent !== undefined ? { percent: Math.round(observation.percent) } : {}),
        ...(observation.issueId !== undefined ? { issue: observation.issueId } : {}),
        ...(observation.handoffPath !== undefined ? { handoff: observation.handoffPath } : {}),
        ...(observation.iteration !== undefined ? { iteration: Math.trunc(observation.iteration) } : {}),
        source: 'agent-checkpoint',
      };
      const result = await call('/api/memory/save', saveAnswer, { text: checkpointObservationText(observation), title, project, metadata });
      return result.ok ? { ok: true, value: { id: result.value.id, title: result.value.title } } : result;
    },

    recentContext: (project, limit = 3) => text(`/api/context/recent?${query({ project, limit })}`),

    async timeline(anchor, project, depth = {}) {
      // Observation ids are positive integers; anything else would make the worker search by query instead.
      if (!Number.isSafeInteger(anchor) || anchor < 1) return failed({ kind: 'rejected', message: `timeline: anchor ${String(anchor)} is not an observation id` });
      const depthOf = (n: number | undefined): number => Math.min(50, Math.max(0, Math.trunc(n ?? 3)));
      return text(`/api/timeline?${query({ anchor, depth_before: depthOf(depth.before), depth_after: depthOf(depth.after), project })}`);
    },

    async searchCheckpoints(project, { level, limit = 20 } = {}) {
      const params = { query: checkpointSearchQuery(level), type: 'observations', format: 'json', project, limit, orderBy: 'date_desc' };
      const result = await call(`/api/search?${query(params)}`, searchAnswer);
      if (!result.ok) return result;
      const prefix = level === undefined ? `${CHECKPOINT_TITLE_PREFIX} L` : `${CHECKPOINT_TITLE_PREFIX} ${level}`;
      const hits = result.value.observations
        .filter((row): row is typeof row & { title: string } => row.title !== null && row.title.startsWith(prefix))
        .map((row) => ({ id: row.id, title: row.title, createdAtEpoch: row.created_at_epoch }))
        .sort((a, b) => b.createdAtEpoch - a.createdAtEpoch);
      return { ok: true, value: hits };
    },
  };
}

function query(params: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
}

function failed<T>(failure: MemoryFailure): MemoryResult<T> {
  return { ok: false, failure };
}
