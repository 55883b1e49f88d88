import * as z from 'zod/mini';
import { given } from '../hook-payload-base.ts';

/**
 * The parts of Claude Code's status line JSON (stdin of the `statusLine` command) we use. Recent
 * versions send `context_window` (`current_usage` of the last API call and `context_window_size`,
 * or `used_percentage`); older ones only `transcript_path` and `model`, so the transcript tail is
 * the fallback. Loose, and every field optional: a status line must render whatever arrives.
 */
export const StatuslineInputSchema = z.looseObject({
  session_id: z.nullish(z.string()),
  transcript_path: z.nullish(z.string()),
  cwd: z.nullish(z.string()),
  model: z.nullish(z.looseObject({ id: z.nullish(z.string()), display_name: z.nullish(z.string()) })),
  workspace: z.nullish(z.looseObject({ current_dir: z.nullish(z.string()), project_dir: z.nullish(z.string()) })),
  context_window: z.nullish(
    z.looseObject({
      context_window_size: z.nullish(z.number()),
      current_usage: z.nullish(
        z.looseObject({
          input_tokens: z.nullish(z.number()),
          cache_creation_input_tokens: z.nullish(z.number()),
          cache_read_input_tokens: z.nullish(z.number()),
        }),
      ),
      used_percentage: z.nullish(z.number()),
    }),
  ),
});

/** The status line input after validation. */
export interface StatuslineInput {
  readonly sessionId?: string;
  readonly transcriptPath?: string;
  readonly cwd?: string;
  readonly model?: string;
  /** Tokens in the window at the last API call (input + cache creation + cache read), when sent. */
  readonly contextTokens?: number;
  readonly contextWindow?: number;
  /** Claude's own percentage, when sent without `current_usage`. */
  readonly usedPercentage?: number;
}

/** Parse the status line JSON; anything unusable gives an empty input (the line still renders). */
export function readStatuslineInput(text: string): StatuslineInput {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {};
  }
  const parsed = StatuslineInputSchema.safeParse(json);
  if (!parsed.success) return {};
  const p = parsed.data;
  const usage = p.context_window?.current_usage;
  const tokens =
    usage === null || usage === undefined
      ? undefined
      : (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
  const size = p.context_window?.context_window_size;
  const percent = p.context_window?.used_percentage;
  const fields: Record<string, string | number | undefined> = {
    sessionId: given(p.session_id),
    transcriptPath: given(p.transcript_path),
    cwd: given(p.workspace?.current_dir) ?? given(p.cwd),
    model: given(p.model?.id),
    contextTokens: tokens !== undefined && Number.isFinite(tokens) && tokens >= 0 ? tokens : undefined,
    contextWindow: typeof size === 'number' && Number.isFinite(size) && size > 0 ? size : undefined,
    usedPercentage: typeof percent === 'number' && Number.isFinite(percent) ? percent : undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as StatuslineInput;
}
