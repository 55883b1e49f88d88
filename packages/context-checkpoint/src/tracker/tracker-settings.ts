import { z } from 'zod';

/** Linear's public GraphQL endpoint: the only non-loopback address the API key is ever sent to. */
export const LINEAR_API_ENDPOINT = 'https://api.linear.app/graphql';

/**
 * The only way to point the Linear client elsewhere (tests, a local mock). Read from the environment
 * only, and only a loopback URL is accepted: a repository's configuration must never redirect where
 * the key goes.
 */
export const LINEAR_ENDPOINT_ENV = 'AGENT_CHECKPOINT_LINEAR_ENDPOINT';

/** Default issue-id pattern: a team key and a number, `ANV-123`. */
export const DEFAULT_ISSUE_PATTERN = '[A-Z][A-Z0-9]+-\\d+';

const issuePattern = z
  .string()
  .min(1)
  .max(200)
  .refine((source) => compileIssuePattern(source) !== undefined, 'not a valid regular expression');

const apiKeyEnv = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'an environment variable name (A-Z, 0-9, _)')
  // A project file names the variable; requiring LINEAR in it keeps a hostile file from sending
  // some other secret (AWS_SECRET_ACCESS_KEY…) to Linear as an Authorization header.
  .refine((name) => name.includes('LINEAR'), 'must contain LINEAR (the key is sent to Linear)');

/**
 * The `tracker` settings (seed 004, LIN-001..004). Off by default. There is deliberately no endpoint
 * and no key here: the key comes from the environment variable `apiKeyEnv`, the endpoint is Linear's
 * (see {@link LINEAR_ENDPOINT_ENV}).
 */
export const trackerSettingsSchema = z.strictObject({
  /** Turns the tracker (and the network) on. When wired into the config file this key is privileged. */
  enabled: z.boolean().default(false),
  provider: z.literal('linear').default('linear'),
  /** Regular expression finding the issue id in the branch name; the first match wins. */
  issuePattern: issuePattern.default(DEFAULT_ISSUE_PATTERN),
  /** Environment variable holding the personal API key. */
  apiKeyEnv: apiKeyEnv.default('LINEAR_API_KEY'),
  /** Levels that post a checkpoint comment (LIN-002/003). */
  commentOn: z.array(z.enum(['L2', 'L3'])).max(2).default(['L2', 'L3']),
  /** Workflow state to move the issue to at L3 (LIN-001), e.g. `In Progress`. Unset: the state stays. */
  l3State: z.string().min(1).max(100).optional(),
  /** Label set at L3 (LIN-004); created in the issue's team when missing. */
  l3Label: z.string().min(1).max(80).default('context-checkpointed'),
  /** Budget for all tracker calls of one checkpoint, retries and waits included. */
  timeoutMs: z.number().int().min(200).max(30_000).default(5_000),
});

/** Settings after defaults. */
export type TrackerSettings = z.output<typeof trackerSettingsSchema>;

/** Keys someone might try in order to redirect the API key; refused with a specific diagnostic. */
const ENDPOINT_KEYS = ['endpoint', 'url', 'apiUrl', 'apiEndpoint', 'baseUrl', 'host'];

/** Parsed settings: invalid input yields the disabled defaults plus diagnostics, never an exception. */
export interface ParsedTrackerSettings {
  readonly settings: TrackerSettings;
  readonly diagnostics: readonly string[];
}

/** Parse untrusted `tracker` settings (from a config file). */
export function parseTrackerSettings(raw: unknown): ParsedTrackerSettings {
  const disabled = trackerSettingsSchema.parse({});
  const diagnostics: string[] = [];
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const key of ENDPOINT_KEYS) {
      if (Object.hasOwn(raw, key)) {
        diagnostics.push(
          `tracker.${key}: refused — the Linear endpoint cannot be set from a configuration file ` +
            `(only ${LINEAR_ENDPOINT_ENV} in the environment, and only to a loopback address); tracker disabled`,
        );
      }
    }
  }
  if (diagnostics.length > 0) return { settings: disabled, diagnostics };
  const parsed = trackerSettingsSchema.safeParse(raw ?? {});
  if (parsed.success) return { settings: parsed.data, diagnostics };
  for (const issue of parsed.error.issues) {
    diagnostics.push(`tracker.${issue.path.join('.') || '(root)'}: ${issue.message}; tracker disabled`);
  }
  return { settings: disabled, diagnostics };
}

/** Compile an issue pattern; undefined when it is not a valid expression. */
export function compileIssuePattern(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
}

/** Where the Linear client sends requests, or why it must not send any. */
export type LinearEndpoint = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly reason: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The endpoint for this process: Linear's, or a loopback override from {@link LINEAR_ENDPOINT_ENV}.
 * A non-loopback override is refused outright (no request at all) rather than ignored, so a mistaken
 * test set-up cannot silently reach the real API either.
 */
export function resolveLinearEndpoint(env: Readonly<Record<string, string | undefined>>): LinearEndpoint {
  const override = env[LINEAR_ENDPOINT_ENV];
  if (override === undefined || override === '') return { ok: true, url: LINEAR_API_ENDPOINT };
  return loopbackUrl(override, LINEAR_ENDPOINT_ENV);
}

/** Accept `value` only as an http(s) URL on a loopback host without credentials. */
export function loopbackUrl(value: string, name: string): LinearEndpoint {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: `${name} is not a URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `${name} must be http(s)` };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: `${name} must not carry credentials` };
  if (!LOOPBACK_HOSTS.has(url.hostname)) {
    return { ok: false, reason: `${name} refused: only loopback addresses (127.0.0.1, ::1, localhost) may replace the official endpoint` };
  }
  return { ok: true, url: url.href };
}
