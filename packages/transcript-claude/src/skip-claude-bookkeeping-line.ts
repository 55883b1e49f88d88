/**
 * Cheap pre-filter for {@link readJsonlTail}: true for lines the reader never needs, so they are
 * dropped without `JSON.parse`. Claude 2.1.x writes multi-kilobyte bookkeeping next to every request
 * (`api-request-shape` ≈ 40 KB, `prompt_snapshot` attachments ≈ 60 KB, `skill_listing` ≈ 14 KB), which
 * would otherwise dominate parse time.
 *
 * Safety: both patterns are anchored at the start of the line and spell out the JSON structure up
 * to the discriminating value, so they can only match a line whose *top-level* keys are exactly
 * those (a quote inside a JSON string is always escaped, so message text cannot fake the prefix).
 * Lines written with another key order are simply not skipped and get parsed normally: the filter
 * can cost speed, never correctness.
 *
 * - bookkeeping lines (no `uuid`, ignored by the reader anyway) start with `{"type":"<name>"`;
 * - chain attachments start with `{"parentUuid":…,"isSidechain":…,"attachment":{"type":"<name>"`.
 *   All are skipped except `queued_command` (a prompt typed mid-turn, used for `lastUserMessage`);
 * - sidechain entries (`"isSidechain":true` right after `parentUuid`) are never part of the main turn.
 */
export function skipClaudeBookkeepingLine(line: string): boolean {
  return BOOKKEEPING_LINE.test(line) || SKIPPED_CHAIN_LINE.test(line);
}

const BOOKKEEPING_LINE =
  /^\{"type":"(?:api-request-shape|api-request-blob|api-request|cost-state|tools-used|atis-latch|last-prompt|queue-operation|file-history-snapshot|file-history-delta|mode|permission-mode)"/;

const SKIPPED_CHAIN_LINE =
  /^\{"parentUuid":(?:null|"[^"\\]*"),"isSidechain":(?:true,|false,(?:"agentId":"[^"\\]*",)?"attachment":\{"type":"(?!queued_command")[^"\\]*")/;

const SIDECHAIN_ATTACHMENT_LINE = /^\{"parentUuid":(?:null|"[^"\\]*"),"isSidechain":true,(?:"promptId":"[^"\\]*",)?(?:"agentId":"[^"\\]*",)?"attachment":\{"type":"/;

/**
 * Pre-filter for a subagent's own transcript (`<session>/subagents/agent-<id>.jsonl`), where every
 * entry is a sidechain entry: bookkeeping lines and attachments are skipped unparsed (an attachment
 * carries no tool call), sidechain user and assistant entries are kept. Same safety argument as
 * {@link skipClaudeBookkeepingLine}: anchored, so message text can never fake it.
 */
export function skipClaudeSubagentLine(line: string): boolean {
  return BOOKKEEPING_LINE.test(line) || SIDECHAIN_ATTACHMENT_LINE.test(line);
}
