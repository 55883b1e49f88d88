import { spawn } from 'node:child_process';
import type { CodexCommand } from './detect-codex-queue.ts';

type Env = Readonly<Record<string, string | undefined>>;

export type QueueAddResult =
  | { readonly ok: true; readonly queuedSubmissionId: string }
  | { readonly ok: false; readonly reason: string };

/** Output of `codex queue` 0.169: `Queued message <queuedSubmissionId> for thread <thread-id>.` */
const QUEUED_LINE = /Queued message (\S+) for thread (\S+?)\.?\s*$/m;

/**
 * `codex queue --thread <id> --message <text>`: argv only (no shell), `CODEX_HOME` from `env`.
 * Exit 0 means "queued", not "delivered" (see `confirmQueuedDelivery`).
 */
export async function queueMessage(
  codex: CodexCommand,
  request: { readonly threadId: string; readonly text: string; readonly env: Env; readonly cwd?: string; readonly timeoutMs?: number },
): Promise<QueueAddResult> {
  const [file, ...prefix] = codex.argv;
  const run = await runCollect(file as string, [...prefix, 'queue', '--thread', request.threadId, '--message', request.text], {
    env: request.env,
    timeoutMs: request.timeoutMs ?? 10_000,
    ...(request.cwd !== undefined ? { cwd: request.cwd } : {}),
  });
  if (run.timedOut) return { ok: false, reason: `\`codex queue\` timed out after ${request.timeoutMs ?? 10_000} ms` };
  if (run.error !== undefined) return { ok: false, reason: `cannot run \`codex queue\`: ${run.error}` };
  const match = QUEUED_LINE.exec(run.stdout) ?? QUEUED_LINE.exec(run.stderr);
  if (run.status !== 0 || !match) {
    const said = (run.stderr.trim() || run.stdout.trim()).split('\n').at(-1)?.slice(0, 200) ?? '';
    return { ok: false, reason: `\`codex queue\` exited ${String(run.status)}${said ? `: ${said}` : ''}` };
  }
  if (match[2] !== request.threadId) return { ok: false, reason: `\`codex queue\` queued for thread ${match[2]}, not ${request.threadId}` };
  return { ok: true, queuedSubmissionId: match[1] as string };
}

export type QueueDeleteResult =
  | { readonly ok: true; readonly deleted: boolean }
  | { readonly ok: false; readonly reason: string };

/**
 * Remove one queued item: `thread/queue/delete` over `codex app-server` (the queue lives in
 * `$CODEX_HOME/queue_1.sqlite`, shared with the daemon). `deleted: false` means the item was no
 * longer queued (already dequeued).
 */
export async function deleteQueuedItem(
  codex: CodexCommand,
  request: { readonly threadId: string; readonly queuedSubmissionId: string; readonly env: Env; readonly timeoutMs?: number },
): Promise<QueueDeleteResult> {
  const answer = await appServerRequest(codex, 'thread/queue/delete', { threadId: request.threadId, queuedSubmissionId: request.queuedSubmissionId }, request);
  if (!answer.ok) return answer;
  return { ok: true, deleted: (answer.result as { deleted?: unknown } | null)?.deleted === true };
}

/** The ids of the items queued for a thread (`thread/queue/list`, first page). */
export async function listQueuedItems(
  codex: CodexCommand,
  request: { readonly threadId: string; readonly env: Env; readonly timeoutMs?: number },
): Promise<{ ok: true; ids: string[] } | { ok: false; reason: string }> {
  const answer = await appServerRequest(codex, 'thread/queue/list', { threadId: request.threadId }, request);
  if (!answer.ok) return answer;
  const result = answer.result as { data?: unknown; items?: unknown; queuedSubmissions?: unknown } | null;
  const list = [result?.data, result?.items, result?.queuedSubmissions].find(Array.isArray) as { id?: unknown }[] | undefined;
  if (list === undefined) return { ok: false, reason: `thread/queue/list: unexpected answer ${JSON.stringify(answer.result).slice(0, 200)}` };
  return { ok: true, ids: list.map((item) => String(item.id)) };
}

/**
 * One request to `codex app-server` (stdio JSON-RPC, one object per line): `initialize` with the
 * experimental API, `initialized`, then `method`. The server runs in its own process group, killed
 * once the answer is in or the time limit passed.
 */
export async function appServerRequest(
  codex: CodexCommand,
  method: string,
  params: unknown,
  options: { readonly env: Env; readonly timeoutMs?: number },
): Promise<{ ok: true; result: unknown } | { ok: false; reason: string }> {
  const [file, ...prefix] = codex.argv;
  const timeoutMs = options.timeoutMs ?? 15_000;
  return new Promise((resolve) => {
    let settled = false;
    let buffered = '';
    const child = spawn(file as string, [...prefix, 'app-server'], { env: { ...options.env }, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    const finish = (result: { ok: true; result: unknown } | { ok: false; reason: string }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdin?.end();
      killGroup(child.pid);
      resolve(result);
    };
    const timer = setTimeout(() => finish({ ok: false, reason: `\`codex app-server\` did not answer within ${timeoutMs} ms` }), timeoutMs);
    child.on('error', (error) => finish({ ok: false, reason: `cannot run \`codex app-server\`: ${error.message}` }));
    child.on('exit', (code) => finish({ ok: false, reason: `\`codex app-server\` exited ${String(code)} before answering` }));
    const send = (message: unknown): void => {
      child.stdin?.write(`${JSON.stringify(message)}\n`);
    };
    child.stdin?.on('error', () => undefined);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > 4 * 1024 * 1024) {
        finish({ ok: false, reason: '`codex app-server` printed too much' });
        return;
      }
      let newline: number;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        let message: { id?: unknown; result?: unknown; error?: { message?: unknown } };
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          continue;
        }
        if (message.id === 1) {
          if (message.error !== undefined) {
            finish({ ok: false, reason: `initialize failed: ${String(message.error.message)}` });
            return;
          }
          send({ method: 'initialized' });
          send({ id: 2, method, params });
        } else if (message.id === 2) {
          if (message.error !== undefined) finish({ ok: false, reason: `${method} failed: ${String(message.error.message)}` });
          else finish({ ok: true, result: message.result ?? null });
          return;
        }
      }
    });
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'agent-checkpoint-tmux', version: '0.1.0' }, capabilities: { experimentalApi: true } } });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

interface Collected {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly error?: string;
}

/** Run a command in its own process group, collect its output, kill the whole group on timeout. */
function runCollect(file: string, args: readonly string[], options: { env: Env; timeoutMs: number; cwd?: string }): Promise<Collected> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env: { ...options.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...(options.cwd !== undefined ? { cwd: options.cwd } : {}) });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let done = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < 64 * 1024) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeoutMs);
    child.on('error', (error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ status: null, stdout, stderr, timedOut, error: error.message });
    });
    child.on('close', (code) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ status: code, stdout, stderr, timedOut });
    });
  });
}
