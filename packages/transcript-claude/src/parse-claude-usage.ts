/** The `message.usage` counters this package reads. */
export interface ClaudeUsage {
  readonly inputTokens: number;
  readonly cacheReadInputTokens: number;
  readonly cacheCreationInputTokens: number;
  readonly outputTokens?: number;
}

/**
 * The `message.usage` counters of an assistant line, when it has `input_tokens` as a number; counters
 * that are missing, negative or not finite read as 0. Plain checks, no pattern library: the monitor
 * after every tool call reads usage through {@link parseClaudeUsageLine}, whose bundle must not load
 * or compile ts-pattern for this.
 */
export function parseClaudeUsage(raw: unknown): ClaudeUsage | undefined {
  if (!isRecord(raw) || typeof raw['input_tokens'] !== 'number') return undefined;
  const count = (key: string): number => {
    const value = raw[key];
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
  };
  const output = raw['output_tokens'];
  return {
    inputTokens: count('input_tokens'),
    cacheReadInputTokens: count('cache_read_input_tokens'),
    cacheCreationInputTokens: count('cache_creation_input_tokens'),
    ...(typeof output === 'number' && Number.isFinite(output) ? { outputTokens: output } : {}),
  };
}

/** What a usage record needs from one assistant entry: the response it belongs to, the model, the time, the counters. */
export interface ClaudeUsageLine {
  /** The API message id, shared by all entries of one response (usage is deduplicated by it). */
  readonly messageId?: string;
  readonly model?: string;
  readonly timestamp?: string;
  readonly usage: ClaudeUsage;
}

/**
 * The usage of one raw transcript line, exactly when `parseClaudeLine` would give an assistant entry
 * whose usage describes the context (`hasContextUsage`): a main-chain (not sidechain) line with a
 * non-empty `uuid`, `type: "assistant"`, a `message` object whose `content` is an array, usage with
 * `input_tokens`, and a model other than `<synthetic>` (API errors and interrupts carry zeroed usage).
 * The newest-usage reader's parser: it skips the content blocks and the pattern matching that the
 * turn reader needs (parse-claude-usage.test.ts holds the two to the same answer on every recorded line).
 */
export function parseClaudeUsageLine(raw: unknown): ClaudeUsageLine | undefined {
  if (!isRecord(raw)) return undefined;
  const uuid = raw['uuid'];
  if (typeof uuid !== 'string' || uuid.length === 0 || raw['type'] !== 'assistant' || raw['isSidechain'] === true) return undefined;
  const message = raw['message'];
  if (!isRecord(message) || !Array.isArray(message['content'])) return undefined;
  const usage = parseClaudeUsage(message['usage']);
  const model = message['model'];
  if (usage === undefined || model === '<synthetic>') return undefined;
  const id = message['id'];
  const timestamp = raw['timestamp'];
  return {
    ...(typeof id === 'string' ? { messageId: id } : {}),
    ...(typeof model === 'string' ? { model } : {}),
    ...(typeof timestamp === 'string' ? { timestamp } : {}),
    usage,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
