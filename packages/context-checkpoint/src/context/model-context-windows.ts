/**
 * Context windows of known model families, used when the transcript does not record the window
 * (Claude Code and Gemini CLI do not; Codex does, as `model_context_window`) and the configuration
 * sets no `context.windowTokens`.
 *
 * Deliberately small and family-based: model ids change monthly, families rarely. Values marked
 * `certain: false` are assumptions (a family member newer than what this table was checked against,
 * or a figure that depends on account settings); `context.windowTokens` overrides them. Order
 * matters: the first matching entry wins, so specific entries precede general ones.
 */
export interface ModelWindowEntry {
  /** Which model ids the entry covers, for docs and diagnostics. */
  readonly family: string;
  /** Tested against the lowercased model id anywhere in it (ids carry provider prefixes such as `models/`, `us.anthropic.`). */
  readonly pattern: RegExp;
  /** Input context window in tokens. */
  readonly window: number;
  /**
   * A larger window some accounts or beta flags enable for this family (Claude's 1M-token context).
   * Used only when the recorded usage already exceeds {@link window}: the standard window is then
   * evidently not the one in use.
   */
  readonly extendedWindow?: number;
  /** False when the value is an assumption rather than a documented figure. */
  readonly certain: boolean;
}

export const MODEL_CONTEXT_WINDOWS: readonly ModelWindowEntry[] = [
  // Anthropic: 200k for Claude 3.x and 4.x; Sonnet 4/4.5 (and later models) offer a 1M-token window
  // behind a beta flag that the transcript does not record.
  { family: 'Claude 3.x', pattern: /claude-3/, window: 200_000, certain: true },
  { family: 'Claude Opus/Sonnet/Haiku 4.x', pattern: /claude-(opus|sonnet|haiku)-4/, window: 200_000, extendedWindow: 1_000_000, certain: true },
  { family: 'Claude (later families)', pattern: /claude-/, window: 200_000, extendedWindow: 1_000_000, certain: false },
  // Google: 1,048,576 input tokens for 2.x; 1.5 Pro had 2M.
  { family: 'Gemini 1.5 Pro', pattern: /gemini-1\.5-pro/, window: 2_097_152, certain: true },
  { family: 'Gemini 2.x', pattern: /gemini-2\./, window: 1_048_576, certain: true },
  { family: 'Gemini 3.x and later', pattern: /gemini-/, window: 1_048_576, certain: false },
  // OpenAI: GPT-5 family input window as Codex uses it (272k; Codex itself records 95 % of it, 258,400).
  { family: 'GPT-5', pattern: /gpt-5(?![.\d])/, window: 272_000, certain: true },
  { family: 'GPT-5.x', pattern: /gpt-5\./, window: 272_000, certain: false },
  { family: 'GPT-4.1', pattern: /gpt-4\.1/, window: 1_047_576, certain: true },
  { family: 'o3 / o4-mini', pattern: /(^|[/.:-])o(3|4-mini)\b/, window: 200_000, certain: true },
];

/** What {@link lookupModelWindow} found. */
export interface ModelWindowMatch {
  readonly window: number;
  readonly entry: ModelWindowEntry;
  /** True when the extended window was chosen because usage exceeded the standard one. */
  readonly extended: boolean;
}

/**
 * The context window of `model` from {@link MODEL_CONTEXT_WINDOWS}, or undefined for an unknown
 * model. `contextTokens`, when given, selects the extended window of a family whose standard window
 * the usage already exceeds.
 */
export function lookupModelWindow(
  model: string | undefined,
  contextTokens?: number,
  table: readonly ModelWindowEntry[] = MODEL_CONTEXT_WINDOWS,
): ModelWindowMatch | undefined {
  if (model === undefined || model === '') return undefined;
  const id = model.toLowerCase();
  const entry = table.find((e) => e.pattern.test(id));
  if (!entry) return undefined;
  if (entry.extendedWindow !== undefined && contextTokens !== undefined && contextTokens > entry.window) {
    return { window: entry.extendedWindow, entry, extended: true };
  }
  return { window: entry.window, entry, extended: false };
}
