import type { IssueTracker } from './issue-tracker.ts';
import { resolveLinearEndpoint, type TrackerSettings } from './tracker-settings.ts';

/** Result of {@link openIssueTracker}: a tracker, or why there is none (a diagnostic for stderr). */
export type OpenedTracker =
  | { readonly ok: true; readonly tracker: IssueTracker; readonly endpoint: string }
  | { readonly ok: false; readonly reason: 'disabled' | 'no-key' | 'endpoint-refused'; readonly message: string };

/** Options of {@link openIssueTracker}. */
export interface OpenIssueTrackerOptions {
  /** The process environment: the only source of the API key and of the test endpoint override. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
  /** Injected for tests only. */
  readonly fetch?: typeof fetch;
}

/**
 * Open the configured tracker. The Linear client is imported here, lazily, so the hook bundle pays for
 * it only when `tracker.enabled` is on (esbuild splits dynamic imports into their own chunk).
 * Never throws.
 */
export async function openIssueTracker(settings: TrackerSettings, options: OpenIssueTrackerOptions): Promise<OpenedTracker> {
  if (!settings.enabled) return { ok: false, reason: 'disabled', message: 'tracker disabled' };
  const apiKey = options.env[settings.apiKeyEnv]?.trim();
  if (!apiKey) return { ok: false, reason: 'no-key', message: `tracker: ${settings.apiKeyEnv} is not set; Linear not updated` };
  const endpoint = resolveLinearEndpoint(options.env);
  if (!endpoint.ok) return { ok: false, reason: 'endpoint-refused', message: `tracker: ${endpoint.reason}; Linear not updated` };
  const { createLinearTracker } = await import('./linear-tracker.ts');
  const tracker = createLinearTracker({
    endpoint: endpoint.url,
    apiKey,
    timeoutMs: settings.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return { ok: true, tracker, endpoint: endpoint.url };
}
