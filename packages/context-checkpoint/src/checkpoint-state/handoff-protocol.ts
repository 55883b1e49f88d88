// zod/mini, like the checkpoint schema: requests and responses are untrusted JSON from scripts and agents.
import * as z from 'zod/mini';
import { MAX_SUMMARY_TOKENS, validateContextSummary } from './token-counter.ts';

/**
 * Seed 002's sub-agent handoff protocol (`.claude/sub-agents/protocols/handoff.md`, extended): an
 * orchestrator hands one phase of a multi-phase command to a sub-agent with a **request** (`mode`, the
 * task, `context.previous_summary`: the previous phase's summary), and the sub-agent answers with a
 * **response** whose `context_summary` becomes that phase's summary in the checkpoint state. Both
 * summaries are bounded by the 500-token limit (`countTokens`): enforced on creation (a request over
 * the limit is rejected) and checked on response (over the limit is a warning; the orchestrator
 * decides whether to truncate or reject).
 */

/** Sub-agent specialisations (seed 002, "Edit 1"). */
export const SUB_AGENT_MODES = ['plan', 'code', 'ui', 'docs', 'eval', 'reconcile', 'research'] as const;
export type SubAgentMode = (typeof SUB_AGENT_MODES)[number];

const stringList = z.array(z.string().check(z.maxLength(4096))).check(z.maxLength(10_000));

/** The request's JSON schema. Unknown fields are kept (additive protocol: existing fields stay valid). */
export const HandoffRequestSchema = z.looseObject({
  mode: z.enum(SUB_AGENT_MODES),
  task: z.string().check(z.minLength(1), z.maxLength(100_000)),
  context: z.looseObject({
    /** Summary from the previous phase (≤ 500 tokens), or null for the first phase. Was `previous_findings`. */
    previous_summary: z.nullable(z.string()),
    command: z.optional(z.string()),
    feature: z.optional(z.nullable(z.string())),
    phase: z.optional(z.string()),
    files: z.optional(stringList),
  }),
});

/** A validated request. */
export type HandoffRequest = z.output<typeof HandoffRequestSchema>;

/** The response's status: `partial` and `blocked` leave the phase in progress. */
export const HANDOFF_RESPONSE_STATUSES = ['complete', 'partial', 'blocked', 'failed'] as const;

/** The response's JSON schema. Unknown fields are kept. */
export const HandoffResponseSchema = z.looseObject({
  status: z.enum(HANDOFF_RESPONSE_STATUSES),
  context_summary: z.optional(z.string()),
  files_created: z.optional(stringList),
  files_modified: z.optional(stringList),
  error: z.optional(z.string()),
});

/** A validated response. */
export type HandoffResponse = z.output<typeof HandoffResponseSchema>;

/** What {@link createHandoffRequest} and {@link checkHandoffResponse} found. */
export type ProtocolCheck<T> =
  | { readonly ok: true; readonly value: T; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly errors: readonly string[] };

/**
 * Create (validate) a handoff request: the shape, a known `mode`, and `previous_summary` within the
 * limit. Over the limit the request is **rejected** with the seed's message ("Context summary exceeds
 * 500 token limit (actual: X tokens)"): orchestrators must not pass it between phases. A request that
 * still uses the old `previous_findings` name is refused with a pointer to the new one.
 */
export function createHandoffRequest(input: unknown, maxTokens: number = MAX_SUMMARY_TOKENS): ProtocolCheck<HandoffRequest> {
  const context = isRecord(input) && isRecord(input['context']) ? input['context'] : undefined;
  if (context !== undefined && 'previous_findings' in context && !('previous_summary' in context)) {
    return { ok: false, errors: ['context.previous_findings was renamed context.previous_summary'] };
  }
  const parsed = HandoffRequestSchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: issues(parsed.error) };
  const summary = parsed.data.context.previous_summary;
  if (summary !== null) {
    const check = validateContextSummary(summary, maxTokens);
    if (!check.valid) return { ok: false, errors: [check.error ?? 'context summary over the limit'] };
  }
  return { ok: true, value: parsed.data, warnings: [] };
}

/**
 * Check a sub-agent's response: the shape is required; a `context_summary` over the limit is a
 * **warning** (the seed: "logged as warnings; the orchestrator decides whether to truncate or reject").
 */
export function checkHandoffResponse(input: unknown, maxTokens: number = MAX_SUMMARY_TOKENS): ProtocolCheck<HandoffResponse> {
  const parsed = HandoffResponseSchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: issues(parsed.error) };
  const warnings: string[] = [];
  if (parsed.data.context_summary !== undefined) {
    const check = validateContextSummary(parsed.data.context_summary, maxTokens);
    if (!check.valid) warnings.push(check.error ?? 'context summary over the limit');
  }
  return { ok: true, value: parsed.data, warnings };
}

/** The first `maxTokens` whitespace-separated words of `summary`, then `…` (an orchestrator's "truncate"). */
export function truncateSummary(summary: string, maxTokens: number = MAX_SUMMARY_TOKENS): string {
  const words = summary.split(/\s+/).filter(Boolean);
  return words.length <= maxTokens ? summary : `${words.slice(0, maxTokens - 1).join(' ')} …`;
}

/** The phase status a response leaves: complete and failed as said; partial and blocked stay in progress. */
export function phaseStatusOf(status: HandoffResponse['status']): 'complete' | 'failed' | 'in_progress' {
  switch (status) {
    case 'complete':
      return 'complete';
    case 'failed':
      return 'failed';
    case 'partial':
    case 'blocked':
      return 'in_progress';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function issues(error: z.core.$ZodError): string[] {
  return error.issues.slice(0, 5).map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`);
}
