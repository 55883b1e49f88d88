import { readJsonlTail, type TokenUsage } from '@agent-checkpoint/core';

/** Bytes of the transcript tail searched for the last usage record. */
const TAIL_BYTES = 256 * 1024;

/**
 * The last API call's usage in a Claude transcript (the fallback when the status line JSON has no
 * `context_window`): the newest `assistant` entry with `message.usage`, synthetic entries skipped.
 * Reads at most the last 256 KiB, newest line first, and stops at the first hit. Undefined when
 * nothing is found or the file cannot be read.
 */
export function readTranscriptUsage(path: string): TokenUsage | undefined {
  let found: TokenUsage | undefined;
  try {
    readJsonlTail(path, {
      maxBytes: TAIL_BYTES,
      mustContainAny: ['"usage"'],
      visit: (entry) => {
        const e = entry as { type?: unknown; message?: { model?: unknown; usage?: Record<string, unknown> } } | null;
        if (e === null || typeof e !== 'object' || e.type !== 'assistant') return 'continue';
        const usage = e.message?.usage;
        const model = typeof e.message?.model === 'string' ? e.message.model : undefined;
        if (usage === undefined || usage === null || model === '<synthetic>') return 'continue';
        const n = (key: string): number => (typeof usage[key] === 'number' ? (usage[key] as number) : 0);
        found = {
          contextTokens: n('input_tokens') + n('cache_read_input_tokens') + n('cache_creation_input_tokens'),
          ...(model !== undefined ? { model } : {}),
        };
        return 'stop';
      },
    });
  } catch {
    return undefined;
  }
  return found;
}
