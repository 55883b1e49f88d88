import type { ClaudeMemClient, ClaudeMemClientOptions } from './claude-mem-client.ts';
import { resolveClaudeMemWorkerUrl } from './claude-mem-worker-url.ts';

/** A client, or why there is none (a diagnostic for stderr). */
export type OpenedClaudeMem = { readonly ok: true; readonly client: ClaudeMemClient; readonly url: string } | { readonly ok: false; readonly message: string };

/**
 * Resolve the worker's loopback URL and load the client lazily (it pulls in zod), so a hook that does
 * not use claude-mem pays nothing for it. Never throws.
 */
export async function openClaudeMemClient(
  options: { readonly env: Readonly<Record<string, string | undefined>> } & Omit<ClaudeMemClientOptions, 'baseUrl'>,
): Promise<OpenedClaudeMem> {
  const url = resolveClaudeMemWorkerUrl({ env: options.env });
  if (!url.ok) return { ok: false, message: `claude-mem: ${url.reason}` };
  const { createClaudeMemClient } = await import('./claude-mem-client.ts');
  const { env: _env, ...clientOptions } = options;
  return { ok: true, client: createClaudeMemClient({ ...clientOptions, baseUrl: url.url }), url: url.url };
}
