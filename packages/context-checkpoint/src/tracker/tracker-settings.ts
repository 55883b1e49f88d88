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

/**
 * The `tracker` settings (seed 004, LIN-001..004), after defaults. Off by default. There is
 * deliberately no endpoint and no key here: the key comes from the environment variable `apiKeyEnv`,
 * the endpoint is Linear's (see {@link LINEAR_ENDPOINT_ENV}).
 *
 * Validated by hand rather than with zod: this module is on the static import path of the package,
 * and zod (like the Linear client) is only loaded once the tracker is actually used.
 */
export interface TrackerSettings {
  /** Turns the tracker (and the network) on. When wired into the config file this key is privileged. */
  readonly enabled: boolean;
  readonly provider: 'linear';
  /** Regular expression finding the issue id in the branch name; the first match wins. */
  readonly issuePattern: string;
  /** Environment variable holding the personal API key; its name must contain `LINEAR`. */
  readonly apiKeyEnv: string;
  /** Levels that post a checkpoint comment (LIN-002/003). */
  readonly commentOn: readonly ('L2' | 'L3')[];
  /** Workflow state to move the issue to at L3 (LIN-001), e.g. `In Progress`. Unset: the state stays. */
  readonly l3State?: string;
  /** Label set at L3 (LIN-004); created in the issue's team when missing. */
  readonly l3Label: string;
  /** Workflow state a finished shard's sub-issue moves to (SHD-004). */
  readonly shardDoneState: string;
  /** Budget of one tracker operation (its requests, the retry and its wait), 200–30000 ms. */
  readonly timeoutMs: number;
}

/** The defaults: everything off. */
export const DEFAULT_TRACKER_SETTINGS: TrackerSettings = {
  enabled: false,
  provider: 'linear',
  issuePattern: DEFAULT_ISSUE_PATTERN,
  apiKeyEnv: 'LINEAR_API_KEY',
  commentOn: ['L2', 'L3'],
  l3Label: 'context-checkpointed',
  shardDoneState: 'Done',
  timeoutMs: 5_000,
};

/** Keys someone might try in order to redirect the API key; refused with a specific diagnostic. */
const ENDPOINT_KEYS = ['endpoint', 'url', 'apiUrl', 'apiEndpoint', 'baseUrl', 'host'];

/** Parsed settings: invalid input yields the disabled defaults plus diagnostics, never an exception. */
export interface ParsedTrackerSettings {
  readonly settings: TrackerSettings;
  readonly diagnostics: readonly string[];
}

type Check = (value: unknown) => string | undefined;

const text = (min: number, max: number): Check => (value) =>
  typeof value === 'string' && value.length >= min && value.length <= max ? undefined : `expected a string of ${min}-${max} characters`;

/** Each known key and how it is checked (a message when wrong). */
const CHECKS: Record<keyof TrackerSettings, Check> = {
  enabled: (v) => (typeof v === 'boolean' ? undefined : 'expected true or false'),
  provider: (v) => (v === 'linear' ? undefined : 'expected "linear"'),
  issuePattern: (v) => text(1, 200)(v) ?? (compileIssuePattern(v as string) ? undefined : 'not a valid regular expression'),
  apiKeyEnv: (v) =>
    typeof v !== 'string' || !/^[A-Z][A-Z0-9_]{0,63}$/.test(v)
      ? 'an environment variable name (A-Z, 0-9, _)'
      : // A project file names the variable; requiring LINEAR in it keeps a hostile file from sending
        // some other secret (AWS_SECRET_ACCESS_KEY…) to Linear as an Authorization header.
        v.includes('LINEAR')
        ? undefined
        : 'must contain LINEAR (the key is sent to Linear)',
  commentOn: (v) =>
    Array.isArray(v) && v.length <= 2 && v.every((level) => level === 'L2' || level === 'L3') ? undefined : 'expected a list of "L2"/"L3"',
  l3State: text(1, 100),
  l3Label: text(1, 80),
  shardDoneState: text(1, 100),
  timeoutMs: (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 200 && v <= 30_000 ? undefined : 'expected an integer 200-30000'),
};

/** Parse untrusted `tracker` settings (from a config file). */
export function parseTrackerSettings(raw: unknown): ParsedTrackerSettings {
  if (raw === undefined || raw === null) return { settings: DEFAULT_TRACKER_SETTINGS, diagnostics: [] };
  if (typeof raw !== 'object' || Array.isArray(raw)) return disabled(['tracker: expected an object']);
  const record = raw as Record<string, unknown>;
  const refused = ENDPOINT_KEYS.filter((key) => Object.hasOwn(record, key)).map(
    (key) =>
      `tracker.${key}: refused — the Linear endpoint cannot be set from a configuration file ` +
      `(only ${LINEAR_ENDPOINT_ENV} in the environment, and only to a loopback address); tracker disabled`,
  );
  if (refused.length > 0) return disabled(refused);
  const problems: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    const check = Object.hasOwn(CHECKS, key) ? CHECKS[key as keyof TrackerSettings] : undefined;
    const problem = check === undefined ? 'unknown key' : check(value);
    if (problem !== undefined) problems.push(`tracker.${key}: ${problem}; tracker disabled`);
  }
  if (problems.length > 0) return disabled(problems);
  return { settings: { ...DEFAULT_TRACKER_SETTINGS, ...(record as Partial<TrackerSettings>) }, diagnostics: [] };
}

function disabled(diagnostics: readonly string[]): ParsedTrackerSettings {
  return { settings: DEFAULT_TRACKER_SETTINGS, diagnostics };
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
