import { spawn, spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** A loopback smart-HTTP git server (git's own `git http-backend`) whose first pushes fail. */
export interface FlakyGitHttp {
  /** `http://127.0.0.1:<port>/repo.git`. */
  readonly url: string;
  /** The bare repository served. */
  readonly bare: string;
  /** Push attempts seen (requests for the receive-pack advertisement), failed or not. */
  pushAttempts(): number;
  close(): Promise<void>;
}

/** How the server answers the first `failures` push attempts. */
export type FlakyAnswer = { readonly status: 503 } | { readonly status: 401 } | { readonly status: 'reset' };

/**
 * Serve `bare` (created here, under `dir`) through `git http-backend` on 127.0.0.1, answering the first
 * `failures` push attempts with `answer` (a 503, a 401 with a Basic challenge, or a dropped
 * connection) before it lets pushes through. `failures: Infinity` fails every one.
 */
export async function startFlakyGitHttp(dir: string, failures: number, answer: FlakyAnswer = { status: 503 }): Promise<FlakyGitHttp> {
  const bare = join(dir, 'repo.git');
  for (const args of [['init', '-q', '--bare', bare], ['--git-dir', bare, 'config', 'http.receivepack', 'true']]) {
    const r = spawnSync('git', args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  }
  let attempts = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.endsWith('/info/refs') && url.searchParams.get('service') === 'git-receive-pack') {
      attempts += 1;
      if (attempts <= failures) {
        if (answer.status === 'reset') return void req.socket.destroy();
        res.writeHead(answer.status, answer.status === 401 ? { 'WWW-Authenticate': 'Basic realm="test"' } : {});
        return void res.end();
      }
    }
    cgi(dir, req, res, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/repo.git`,
    bare,
    pushAttempts: () => attempts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Run `git http-backend` as a CGI for one request. */
function cgi(root: string, req: IncomingMessage, res: ServerResponse, url: URL): void {
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: url.pathname,
      QUERY_STRING: url.search.replace(/^\?/, ''),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      ...(req.headers['content-encoding'] !== undefined ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
      REMOTE_ADDR: '127.0.0.1',
      REMOTE_USER: 'test',
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  req.pipe(child.stdin);
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.on('close', () => {
    const out = Buffer.concat(chunks);
    const split = out.indexOf('\r\n\r\n');
    const headerEnd = split >= 0 ? split : out.indexOf('\n\n');
    const sep = split >= 0 ? 4 : 2;
    if (headerEnd < 0) {
      res.writeHead(500);
      return void res.end();
    }
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of out.subarray(0, headerEnd).toString('latin1').split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    res.writeHead(status, headers);
    res.end(out.subarray(headerEnd + sep));
  });
}
