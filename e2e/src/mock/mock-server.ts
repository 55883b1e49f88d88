import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { encodeAnthropicReply } from './encode-anthropic-reply.ts';
import { encodeChatReply } from './encode-chat-reply.ts';
import { encodeGeminiReply, geminiTextResponse } from './encode-gemini-reply.ts';
import { encodeResponsesReply } from './encode-responses-reply.ts';
import { fillJsonSchema } from './fill-json-schema.ts';
import { offersPiTools, toClaudeCalls, toCodexCalls, toCopilotCalls, toGeminiCalls, toPiCalls, toQwenCalls } from './native-tool-calls.ts';
import { readAnthropicRequest } from './read-anthropic-request.ts';
import { readChatRequest } from './read-chat-request.ts';
import { readGeminiRequest } from './read-gemini-request.ts';
import { readResponsesRequest } from './read-responses-request.ts';
import { appendRequestLog, redactHeaders, type LoggedRequest, type MockApi } from './request-log.ts';
import { DEFAULT_TITLE, type ModelReply, type Scenario } from './scenario.ts';
import { selectReply, type ConversationView } from './select-step.ts';
import { writeSse } from './sse.ts';

export interface ModelMockOptions {
  readonly scenario: Scenario;
  /** JSONL file that receives one {@link LoggedRequest} per request (appended synchronously). */
  readonly logFile?: string;
  /**
   * Directory relative scenario paths resolve against for Claude (whose file tools need absolute
   * paths). Without it, the mock reads "Primary working directory" from Claude's request.
   */
  readonly workspaceRoot?: string;
  /** Port to bind on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number;
}

/** A running mock. Only ever listens on 127.0.0.1. */
export interface ModelMock {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** Every request so far, in arrival order. */
  readonly requests: readonly LoggedRequest[];
  /** Replaces the script (e.g. between sessions sharing one mock). */
  setScenario(scenario: Scenario): void;
  setWorkspaceRoot(root: string | undefined): void;
  /** Resolves once `predicate` holds for the request list; rejects after `timeoutMs`. */
  waitForRequest(predicate: (r: LoggedRequest) => boolean, timeoutMs: number): Promise<LoggedRequest>;
  close(): Promise<void>;
}

const GEMINI_PATH = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/;

/** Starts the scripted model-API mock (Anthropic Messages, Gemini, OpenAI Responses, OpenAI chat completions). */
export async function startModelMock(options: ModelMockOptions): Promise<ModelMock> {
  let scenario = options.scenario;
  let workspaceRoot = options.workspaceRoot;
  const requests: LoggedRequest[] = [];
  let received = 0;
  const waiters = new Set<() => void>();

  const record = (entry: LoggedRequest): void => {
    requests.push(entry);
    appendRequestLog(options.logFile, entry);
    for (const wake of waiters) wake();
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Numbered on arrival: side requests may overlap with turns and finish in another order.
    received += 1;
    const n = received;
    const url = req.url ?? '/';
    const pathname = url.split('?')[0] ?? '/';
    const rawBody = await readBody(req);
    const body = parseBody(rawBody);
    const base = {
      n,
      at: new Date().toISOString(),
      method: req.method ?? 'GET',
      url,
      headers: redactHeaders(req.headers),
      body,
    };
    try {
      const logged = route(pathname, req, res, body, n);
      record({ ...base, ...logged });
    } catch (error) {
      record({ ...base, api: 'other', answer: 'error', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'mock_error', message: String(error) } }));
    }
  }

  type Logged = Omit<LoggedRequest, 'n' | 'at' | 'method' | 'url' | 'headers' | 'body'>;

  function route(pathname: string, req: IncomingMessage, res: ServerResponse, body: unknown, n: number): Logged {
    const method = req.method ?? 'GET';
    if (method === 'POST' && pathname === '/v1/messages') return answerAnthropic(res, body, n);
    if (method === 'POST' && pathname === '/v1/messages/count_tokens') {
      sendJson(res, { input_tokens: 100 });
      return { api: 'anthropic', answer: 'side' };
    }
    if (pathname === '/api/hello') {
      sendJson(res, {});
      return { api: 'anthropic', answer: 'side' };
    }
    const gemini = GEMINI_PATH.exec(pathname);
    if (method === 'POST' && gemini) return answerGemini(res, body, n, gemini[1] ?? 'gemini-mock', gemini[2] ?? '');
    if (method === 'POST' && pathname === '/v1/responses') return answerResponses(req, res, body, n);
    if (method === 'POST' && pathname === '/v1/chat/completions') return answerChat(res, body, n);
    if (method === 'GET' && pathname === '/v1/models') {
      // Copilot CLI lists the provider's models at start.
      sendJson(res, { object: 'list', data: [{ id: 'gpt-mock', object: 'model', owned_by: 'e2e' }] });
      return { api: 'chat', answer: 'side' };
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `mock: no route for ${method} ${pathname}` } }));
    return { api: 'other', answer: 'unknown' };
  }

  function pick(view: ConversationView): Pick<Logged, 'answer' | 'stepIndex' | 'branch' | 'view' | 'reply' | 'thread'> & { reply: ModelReply } {
    const selected = selectReply(scenario, view);
    const thread = selected.thread === undefined ? {} : { thread: selected.thread };
    return selected.kind === 'step'
      ? { answer: 'step', stepIndex: selected.stepIndex, ...(selected.branch === undefined ? {} : { branch: selected.branch }), ...thread, view, reply: selected.reply }
      : { answer: 'fallback', stepIndex: selected.stepIndex, ...thread, view, reply: selected.reply };
  }

  function answerAnthropic(res: ServerResponse, body: unknown, n: number): Logged {
    const info = readAnthropicRequest(body);
    const api: MockApi = 'anthropic';
    const picked = info.isSideRequest
      ? { answer: 'side' as const, view: info.view, reply: { kind: 'text', text: scenario.title ?? DEFAULT_TITLE } satisfies ModelReply }
      : pick(info.view);
    const root = workspaceRoot ?? info.workspaceRoot ?? '/';
    const ids = { step: picked.stepIndex ?? 0, request: n };
    const pi = offersPiTools(info.toolNames);
    const encoded = encodeAnthropicReply(picked.reply, { model: info.model, ids, workspaceRoot: root, pi, ...(scenario.contextTokens !== undefined ? { contextTokens: scenario.contextTokens } : {}) });
    if (info.stream) {
      res.setHeader('request-id', `req_e2e_${n}`);
      writeSse(res, encoded.events);
    } else {
      sendJson(res, encoded.message, { 'request-id': `req_e2e_${n}` });
    }
    const used = picked.reply.kind === 'tools' ? (pi ? toPiCalls(picked.reply.calls) : toClaudeCalls(picked.reply.calls, root)).map((c) => c.name) : [];
    return { api, ...picked, toolNames: info.toolNames, ...missing(used, info.toolNames) };
  }

  function answerGemini(res: ServerResponse, body: unknown, n: number, model: string, method: string): Logged {
    const info = readGeminiRequest(body);
    if (method === 'countTokens') {
      sendJson(res, { totalTokens: 100 });
      return { api: 'gemini', answer: 'side' };
    }
    if (method === 'generateContent') {
      // Side questions (loop check, router, summaries): structured when a schema is requested.
      const text = info.responseSchema === undefined ? (scenario.title ?? DEFAULT_TITLE) : JSON.stringify(fillJsonSchema(info.responseSchema));
      sendJson(res, geminiTextResponse(text, model));
      return { api: 'gemini', answer: 'side', view: info.view, reply: { kind: 'text', text } };
    }
    const picked = pick(info.view);
    const ids = { step: picked.stepIndex ?? 0, request: n };
    writeSse(res, encodeGeminiReply(picked.reply, { model, ids, ...(scenario.contextTokens !== undefined ? { contextTokens: scenario.contextTokens } : {}) }).map((data) => ({ data })), { crlf: true });
    const used = picked.reply.kind === 'tools' ? toGeminiCalls(picked.reply.calls).map((c) => c.name) : [];
    return { api: 'gemini', ...picked, toolNames: info.toolNames, ...missing(used, info.toolNames) };
  }

  function answerResponses(req: IncomingMessage, res: ServerResponse, body: unknown, n: number): Logged {
    const info = readResponsesRequest(body, req.headers);
    if (info.isTitleRequest) {
      const reply: ModelReply = { kind: 'text', text: scenario.title ?? DEFAULT_TITLE };
      writeSse(res, encodeResponsesReply(reply, { model: info.model, ids: { step: 0, request: n }, messageIdPrefix: 'msg_e2e_title' }));
      return { api: 'responses', answer: 'title', view: info.view, reply, toolNames: info.toolNames };
    }
    const picked = pick(info.view);
    const ids = { step: picked.stepIndex ?? 0, request: n };
    writeSse(res, encodeResponsesReply(picked.reply, { model: info.model, ids }));
    const used =
      picked.reply.kind === 'tools' ? toCodexCalls(picked.reply.calls).map((c) => `${c.type === 'function_call' ? 'function' : 'custom'}:${c.name}`) : [];
    return { api: 'responses', ...picked, toolNames: info.toolNames, ...missing(used, info.toolNames) };
  }

  function answerChat(res: ServerResponse, body: unknown, n: number): Logged {
    const info = readChatRequest(body);
    const picked = pick(info.view);
    const root = workspaceRoot ?? '/';
    // Two CLIs speak chat completions here; their tool lists tell them apart (Qwen Code's are Gemini CLI's names).
    const toCalls = info.toolNames.includes('run_shell_command') ? toQwenCalls : toCopilotCalls;
    const encoded = encodeChatReply(picked.reply, { model: info.model, ids: { step: picked.stepIndex ?? 0, request: n }, workspaceRoot: root, toCalls });
    if (info.stream) writeSse(res, encoded.chunks, { doneMarker: true });
    else sendJson(res, encoded.completion);
    const used = picked.reply.kind === 'tools' ? toCalls(picked.reply.calls, root).map((c) => c.name) : [];
    return { api: 'chat', ...picked, toolNames: info.toolNames, ...missing(used, info.toolNames) };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    setScenario(next) {
      scenario = next;
    },
    setWorkspaceRoot(root) {
      workspaceRoot = root;
    },
    waitForRequest(predicate, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = requests.find(predicate);
          if (found === undefined) return false;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(found);
          return true;
        };
        const wake = (): void => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`mock: no matching request within ${timeoutMs} ms (${requests.length} received)`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function missing(used: readonly string[], offered: readonly string[]): { missingTools?: readonly string[] } {
  if (offered.length === 0) return {};
  const absent = [...new Set(used.filter((name) => !offered.includes(name)))];
  return absent.length === 0 ? {} : { missingTools: absent };
}

function sendJson(res: ServerResponse, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

const decoders: Record<string, (buffer: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let buffer: Buffer = Buffer.concat(chunks);
  const encoding = req.headers['content-encoding'];
  const decode = typeof encoding === 'string' ? decoders[encoding] : undefined;
  if (decode) buffer = await decode(buffer);
  return buffer.toString('utf8');
}

function parseBody(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
