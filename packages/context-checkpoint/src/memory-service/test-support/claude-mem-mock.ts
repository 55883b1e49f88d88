/**
 * Test-only loopback mock of claude-mem's worker HTTP API, for the routes the client uses. Shapes follow
 * thedotmack/claude-mem at e2d1df569a8f (Apache-2.0), read, not copied:
 * - `POST /api/memory/save` — `MemoryRoutes.ts`: a strict zod body `{ text (trimmed, non-empty), title?,
 *   project?, metadata? (object) }`, 400 `{ error: 'ValidationError', issues }` otherwise; stores a
 *   `discovery` observation with subtitle `Manual memory` and EMPTY concepts (whatever the body says);
 *   answers `{ success, id, title, project, message }`.
 * - `GET /api/search` with `format=json` — `SearchManager.search`: `{ observations, sessions, prompts,
 *   totalResults, query }`, rows shaped like `ObservationRow` (`src/services/sqlite/types.ts`).
 * - `GET /api/context/recent` — `SearchManager.getRecentContext`: `{ content: [{ type: 'text', text }] }`,
 *   "No previous sessions found…" when there are none.
 * - `GET /api/timeline` — `SearchManager.timeline`: content text, or `isError` without anchor and query.
 * The search itself is a plain word match, not the worker's vector/FTS ranking.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MockObservationRow {
  readonly id: number;
  readonly project: string;
  readonly type: string;
  readonly title: string | null;
  readonly subtitle: string | null;
  readonly narrative: string | null;
  readonly concepts: string | null;
  readonly metadata: string | null;
  readonly created_at: string;
  readonly created_at_epoch: number;
}

export interface MockSession {
  readonly project: string;
  readonly request: string;
  readonly completed?: string;
  readonly next_steps?: string;
}

export interface ClaudeMemMock {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly requests: { readonly method: string; readonly path: string; readonly headers: IncomingMessage['headers']; readonly body: string }[];
  readonly violations: string[];
  readonly observations: MockObservationRow[];
  readonly sessions: MockSession[];
  /** Make the next request hang (never answered), answer garbage, or answer a tool error (`isError`). */
  fault(kind: 'hang' | 'garbage' | 'is-error'): void;
  close(): Promise<void>;
}

const SAVE_KEYS = new Set(['text', 'title', 'project', 'metadata']);

export async function startClaudeMemMock(seed: { readonly defaultProject?: string } = {}): Promise<ClaudeMemMock> {
  const requests: ClaudeMemMock['requests'] = [];
  const violations: string[] = [];
  const observations: MockObservationRow[] = [];
  const sessions: MockSession[] = [];
  const faults: ('hang' | 'garbage' | 'is-error')[] = [];
  let clock = Date.UTC(2026, 0, 7, 11, 0, 0);

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body });
      const fault = faults.shift();
      if (fault === 'hang') return;
      if (fault === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('<html>');
      if (fault === 'is-error') return json(res, 200, { content: [{ type: 'text', text: 'Error: Observation 9 not found' }], isError: true });
      if (req.headers.authorization !== undefined) violations.push('an Authorization header was sent to claude-mem');
      route(req.method ?? '', url, body, res);
    });
  });

  function route(method: string, url: URL, body: string, res: ServerResponse): void {
    const q = url.searchParams;
    if (method === 'GET' && url.pathname === '/api/health') return json(res, 200, { status: 'ok', version: 'mock', initialized: true });
    if (method === 'POST' && url.pathname === '/api/memory/save') return save(body, res);
    if (method === 'GET' && url.pathname === '/api/search') {
      const words = (q.get('query') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const project = q.get('project');
      const limit = Number(q.get('limit') ?? '20');
      const found = observations
        .filter((o) => project === null || o.project === project)
        .filter((o) => words.every((w) => `${o.title ?? ''} ${o.narrative ?? ''}`.toLowerCase().includes(w)))
        .sort((a, b) => (q.get('orderBy') === 'date_asc' ? a.created_at_epoch - b.created_at_epoch : b.created_at_epoch - a.created_at_epoch))
        .slice(0, limit);
      if (q.get('format') !== 'json') violations.push('search without format=json answers Markdown text');
      return json(res, 200, { observations: found, sessions: [], prompts: [], totalResults: found.length, query: q.get('query') ?? '' });
    }
    if (method === 'GET' && url.pathname === '/api/context/recent') {
      const project = q.get('project') ?? seed.defaultProject ?? 'unknown';
      const limit = Math.max(1, Number.parseInt(q.get('limit') ?? '3', 10) || 3);
      const mine = sessions.filter((s) => s.project === project).slice(-limit);
      if (mine.length === 0) return text(res, `# Recent Session Context\n\nNo previous sessions found for project "${project}".`);
      const lines = ['# Recent Session Context', '', `Showing last ${mine.length} session(s) for **${project}**:`, ''];
      for (const s of mine) {
        lines.push('---', '', '**Summary**', '', `**Request:** ${s.request}`);
        if (s.completed) lines.push(`**Completed:** ${s.completed}`);
        if (s.next_steps) lines.push(`**Next Steps:** ${s.next_steps}`);
        lines.push('');
      }
      return text(res, lines.join('\n'));
    }
    if (method === 'GET' && url.pathname === '/api/timeline') {
      const anchor = q.get('anchor');
      if (!anchor && !q.get('query')) return json(res, 200, { content: [{ type: 'text', text: 'Error: Must provide either "anchor" or "query" parameter' }], isError: true });
      const id = Number(anchor);
      const before = Number(q.get('depth_before') ?? '10');
      const after = Number(q.get('depth_after') ?? '10');
      const around = observations.filter((o) => o.id >= id - before && o.id <= id + after).sort((a, b) => a.id - b.id);
      return text(res, [`# Timeline around anchor: ${anchor}`, '', ...around.map((o) => `| #${o.id} | ${o.type} | ${o.title ?? ''} |`)].join('\n'));
    }
    json(res, 404, { error: 'NotFound', message: `Cannot ${method} ${url.pathname}` });
  }

  function save(body: string, res: ServerResponse): void {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(body) as Record<string, unknown>;
    } catch {
      violations.push('save body is not JSON');
      return json(res, 400, { error: 'ValidationError', issues: [{ path: [], message: 'Invalid JSON', code: 'invalid_type' }] });
    }
    const issues: { path: string[]; message: string; code: string }[] = [];
    for (const key of Object.keys(parsed)) if (!SAVE_KEYS.has(key)) issues.push({ path: [], message: `Unrecognized key: "${key}"`, code: 'unrecognized_keys' });
    if (typeof parsed.text !== 'string' || parsed.text.trim() === '') issues.push({ path: ['text'], message: 'Too small', code: 'too_small' });
    for (const key of ['title', 'project']) if (parsed[key] !== undefined && typeof parsed[key] !== 'string') issues.push({ path: [key], message: 'Expected string', code: 'invalid_type' });
    const metadata = parsed.metadata;
    if (metadata !== undefined && (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))) issues.push({ path: ['metadata'], message: 'Expected record', code: 'invalid_type' });
    if (issues.length > 0) {
      violations.push(...issues.map((i) => `save: ${i.path.join('.')} ${i.message}`));
      return json(res, 400, { error: 'ValidationError', issues });
    }
    const text = String(parsed.text).trim();
    const project = (typeof parsed.project === 'string' && parsed.project.trim()) || seed.defaultProject || 'unknown';
    clock += 60_000;
    const row: MockObservationRow = {
      id: observations.length + 1,
      project,
      type: 'discovery',
      title: typeof parsed.title === 'string' && parsed.title !== '' ? parsed.title : text.substring(0, 60).trim() + (text.length > 60 ? '...' : ''),
      subtitle: 'Manual memory',
      narrative: text,
      concepts: '[]',
      metadata: metadata === undefined ? null : JSON.stringify(metadata),
      created_at: new Date(clock).toISOString(),
      created_at_epoch: clock,
    };
    observations.push(row);
    json(res, 200, { success: true, id: row.id, title: row.title, project, message: `Memory saved as observation #${row.id}` });
  }

  function text(res: ServerResponse, value: string): void {
    json(res, 200, { content: [{ type: 'text', text: value }] });
  }
  function json(res: ServerResponse, status: number, payload: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(payload));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    violations,
    observations,
    sessions,
    fault: (kind) => faults.push(kind),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
