import type { AgentId } from '../agent-id.ts';
import { DEFAULT_EXCERPT_HEAD, DEFAULT_EXCERPT_TAIL } from '../timeline/make-output-excerpt.ts';
import { TOOL_KINDS, TOOL_OUTCOMES, type OutputExcerpt, type ToolCall, type ToolCallOrigin } from '../timeline/tool-call.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import { DIAGNOSTIC_CODE_PATTERN } from './transcript-diagnostic-codes.ts';

/** What a valid timeline is checked against, beyond its own shape. */
export interface TimelineExpectations {
  /** The agent of the reader that produced it. */
  readonly agent: AgentId;
  /** The byte cap of the read: `readStats.bytesRead` must not exceed it. */
  readonly maxBytes?: number;
  /** Size of the file that was read, when the caller knows it: `readStats.fileBytes` must equal it. */
  readonly fileBytes?: number;
  /**
   * Excerpt budget the reader was configured with (default: core's 1 KiB head + 3 KiB tail). An excerpt
   * may never hold more than this.
   */
  readonly excerpt?: { readonly head: number; readonly tail: number };
}

/** Most characters of `prompt` a timeline may carry (the contract keeps the first 2,000). */
export const MAX_PROMPT_LENGTH = 2000;
/** Most entries of `usageHistory`. */
export const MAX_USAGE_HISTORY = 20;

const OUTCOMES: ReadonlySet<string> = new Set(TOOL_OUTCOMES);
const LEVELS = new Set(['info', 'warn']);

/**
 * Every way `timeline` breaks the reader contract, as readable sentences (empty when it is valid).
 * Pure and total: it never throws, whatever it is given, so a broken reader shows up as a list of
 * violations rather than a crash inside the checker.
 *
 * Checked: the agent; `hasData: false` ⇒ no calls, not truncated, at least one diagnostic; unique
 * non-empty call ids; each call's kind in {@link TOOL_KINDS}, non-empty `rawName`, object `input`,
 * string `paths`; shell calls carry a `command` and no `paths`; web and plan calls no `paths` (they
 * touch no file: a path there would read as touched); `exitCode` an integer, non-zero only
 * with outcome `error`, never on a `pending` or `unknown` call; excerpts within the budget and self-consistent;
 * ISO timestamps; diagnostics well-formed; `truncated` explained by a warning; `readStats` within
 * the cap; `prompt` and `usageHistory` within their limits.
 */
export function timelineViolations(timeline: TurnTimeline, expect: TimelineExpectations): string[] {
  const out: string[] = [];
  try {
    checkTimeline(timeline, expect, out);
  } catch (error) {
    out.push(`the timeline could not be inspected: ${error instanceof Error ? error.message : String(error)}`);
  }
  return out;
}

function checkTimeline(t: TurnTimeline, expect: TimelineExpectations, out: string[]): void {
  if (t === null || typeof t !== 'object') {
    out.push(`not an object: ${String(t)}`);
    return;
  }
  if (t.agent !== expect.agent) out.push(`agent is ${JSON.stringify(t.agent)}, expected ${expect.agent}`);
  if (typeof t.hasData !== 'boolean') out.push('hasData is not a boolean');
  if (typeof t.truncated !== 'boolean') out.push('truncated is not a boolean');
  if (!Array.isArray(t.calls)) {
    out.push('calls is not an array');
    return;
  }
  if (!Array.isArray(t.diagnostics)) {
    out.push('diagnostics is not an array');
    return;
  }
  if (!t.hasData) {
    if (t.calls.length > 0) out.push(`hasData is false but ${t.calls.length} call(s) are listed`);
    if (t.truncated) out.push('hasData is false but truncated is true');
    if (t.diagnostics.length === 0) out.push('hasData is false without a diagnostic saying why');
  }
  if (!Number.isInteger(t.checkpointsDelivered) || t.checkpointsDelivered < 0) {
    out.push(`checkpointsDelivered is ${String(t.checkpointsDelivered)}, not a non-negative integer`);
  }

  const ids = new Set<string>();
  t.calls.forEach((call, index) => {
    const where = `call #${index} (${describeCall(call)})`;
    if (typeof call.id !== 'string' || call.id.length === 0) out.push(`${where}: id is not a non-empty string`);
    else if (ids.has(call.id)) out.push(`${where}: id ${JSON.stringify(call.id)} is not unique`);
    else ids.add(call.id);
    checkCall(call, where, expect, out);
  });

  for (const [index, diagnostic] of t.diagnostics.entries()) {
    const where = `diagnostic #${index}`;
    if (!LEVELS.has(diagnostic.level)) out.push(`${where}: level ${JSON.stringify(diagnostic.level)} is not info or warn`);
    if (typeof diagnostic.code !== 'string' || !DIAGNOSTIC_CODE_PATTERN.test(diagnostic.code)) {
      out.push(`${where}: code ${JSON.stringify(diagnostic.code)} is not a lower-case hyphenated word`);
    }
    if (typeof diagnostic.message !== 'string' || diagnostic.message.trim() === '') out.push(`${where}: empty message`);
  }
  if (t.truncated && !t.diagnostics.some((d) => d.level === 'warn')) {
    out.push('truncated is true without a warning diagnostic explaining it');
  }

  optionalString(t.turnId, 'turnId', out, true);
  optionalString(t.prompt, 'prompt', out, false);
  if (typeof t.prompt === 'string' && t.prompt.length > MAX_PROMPT_LENGTH) {
    out.push(`prompt has ${t.prompt.length} characters, more than ${MAX_PROMPT_LENGTH}`);
  }
  optionalString(t.lastUserMessage, 'lastUserMessage', out, false);
  optionalString(t.lastAssistantMessage, 'lastAssistantMessage', out, false);
  optionalString(t.cwd, 'cwd', out, true);
  optionalString(t.cliVersion, 'cliVersion', out, true);
  optionalTimestamp(t.startedAt, 'startedAt', out);

  if (t.tokenUsage !== undefined) checkUsage(t.tokenUsage, 'tokenUsage', out);
  if (t.usageHistory !== undefined) {
    if (!Array.isArray(t.usageHistory)) out.push('usageHistory is not an array');
    else {
      if (t.usageHistory.length > MAX_USAGE_HISTORY) out.push(`usageHistory has ${t.usageHistory.length} entries, more than ${MAX_USAGE_HISTORY}`);
      t.usageHistory.forEach((usage, index) => checkUsage(usage, `usageHistory[${index}]`, out));
    }
  }

  if (t.readStats !== undefined) {
    const { bytesRead, fileBytes } = t.readStats;
    if (!isNonNegativeInteger(bytesRead)) out.push(`readStats.bytesRead is ${String(bytesRead)}`);
    if (!isNonNegativeInteger(fileBytes)) out.push(`readStats.fileBytes is ${String(fileBytes)}`);
    if (isNonNegativeInteger(bytesRead) && isNonNegativeInteger(fileBytes) && bytesRead > fileBytes) {
      out.push(`readStats.bytesRead ${bytesRead} exceeds the file size ${fileBytes}`);
    }
    if (expect.maxBytes !== undefined && bytesRead > expect.maxBytes) {
      out.push(`readStats.bytesRead ${bytesRead} exceeds the ${expect.maxBytes}-byte cap`);
    }
    if (expect.fileBytes !== undefined && fileBytes !== expect.fileBytes) {
      out.push(`readStats.fileBytes is ${fileBytes}, the file has ${expect.fileBytes} bytes`);
    }
  }
}

function checkCall(call: ToolCall, where: string, expect: TimelineExpectations, out: string[]): void {
  if (!TOOL_KINDS.includes(call.kind)) out.push(`${where}: kind ${JSON.stringify(call.kind)} is not one of ${TOOL_KINDS.join(', ')}`);
  if (typeof call.rawName !== 'string' || call.rawName.trim() === '') out.push(`${where}: rawName is not a non-empty string`);
  if (call.input === null || typeof call.input !== 'object' || Array.isArray(call.input)) out.push(`${where}: input is not an object`);
  if (!Array.isArray(call.paths)) out.push(`${where}: paths is not an array`);
  else if (call.paths.some((p) => typeof p !== 'string' || p === '')) out.push(`${where}: paths holds a non-string or empty entry`);
  if (!OUTCOMES.has(call.outcome)) out.push(`${where}: outcome ${JSON.stringify(call.outcome)} is not one of ${TOOL_OUTCOMES.join(', ')}`);
  optionalTimestamp(call.timestamp, `${where}: timestamp`, out);
  if (call.origin !== undefined) checkOrigin(call.origin, where, out);
  if (call.output !== undefined) checkExcerpt(call.output, where, expect, out);

  if (call.kind === 'shell') {
    if (typeof call.command !== 'string') out.push(`${where}: shell call without a command string`);
    if (Array.isArray(call.paths) && call.paths.length > 0) out.push(`${where}: shell call lists paths (core derives them from the command)`);
    const exitCode = call.exitCode;
    if (exitCode !== undefined) {
      if (!Number.isInteger(exitCode)) out.push(`${where}: exitCode ${String(exitCode)} is not an integer`);
      if (exitCode !== 0 && call.outcome !== 'error') out.push(`${where}: exit code ${exitCode} with outcome ${call.outcome} (a non-zero exit is an error)`);
      if (call.outcome === 'pending') out.push(`${where}: a pending call (no result) carries exit code ${exitCode}`);
      if (call.outcome === 'unknown') out.push(`${where}: a call of unknown outcome carries exit code ${exitCode}`);
    }
  } else if ('exitCode' in call || 'command' in call) {
    out.push(`${where}: a ${call.kind} call carries shell fields (command/exitCode)`);
  }
  if ((call.kind === 'web' || call.kind === 'plan') && Array.isArray(call.paths) && call.paths.length > 0) {
    out.push(`${where}: a ${call.kind} call lists paths (it touches no file)`);
  }
}

function checkOrigin(origin: ToolCallOrigin, where: string, out: string[]): void {
  const kind = origin.kind;
  switch (kind) {
    case 'subagent':
      if (typeof origin.agentId !== 'string' || origin.agentId === '') out.push(`${where}: origin.agentId is not a non-empty string`);
      if (origin.agentType !== undefined && typeof origin.agentType !== 'string') out.push(`${where}: origin.agentType is not a string`);
      if (origin.parentCallId !== undefined && typeof origin.parentCallId !== 'string') out.push(`${where}: origin.parentCallId is not a string`);
      return;
    default:
      out.push(`${where}: origin kind ${JSON.stringify(kind)} is unknown`);
  }
}

function checkExcerpt(excerpt: OutputExcerpt, where: string, expect: TimelineExpectations, out: string[]): void {
  const head = expect.excerpt?.head ?? DEFAULT_EXCERPT_HEAD;
  const tail = expect.excerpt?.tail ?? DEFAULT_EXCERPT_TAIL;
  if (typeof excerpt.head !== 'string' || typeof excerpt.tail !== 'string') {
    out.push(`${where}: output head/tail are not strings`);
    return;
  }
  // An output that fits the whole budget is kept whole in `head` (makeOutputExcerpt); a cut one keeps
  // at most the head budget and the tail budget.
  if (excerpt.head.length + excerpt.tail.length > head + tail) {
    out.push(`${where}: output keeps ${excerpt.head.length + excerpt.tail.length} characters, budget ${head + tail}`);
  }
  if (excerpt.truncated && excerpt.head.length > head) out.push(`${where}: cut output head has ${excerpt.head.length} characters, budget ${head}`);
  if (excerpt.truncated && excerpt.tail.length > tail) out.push(`${where}: cut output tail has ${excerpt.tail.length} characters, budget ${tail}`);
  if (!isNonNegativeInteger(excerpt.totalLength)) {
    out.push(`${where}: output totalLength is ${String(excerpt.totalLength)}`);
    return;
  }
  const kept = excerpt.head.length + excerpt.tail.length;
  if (kept > excerpt.totalLength) out.push(`${where}: output keeps ${kept} characters of a ${excerpt.totalLength}-character output`);
  if (excerpt.truncated !== kept < excerpt.totalLength) {
    out.push(`${where}: output truncated=${String(excerpt.truncated)} but keeps ${kept} of ${excerpt.totalLength} characters`);
  }
}

function checkUsage(usage: NonNullable<TurnTimeline['tokenUsage']>, where: string, out: string[]): void {
  if (usage === null || typeof usage !== 'object') {
    out.push(`${where} is not an object`);
    return;
  }
  if (!isNonNegativeFinite(usage.contextTokens)) out.push(`${where}.contextTokens is ${String(usage.contextTokens)}`);
  if (usage.outputTokens !== undefined && !isNonNegativeFinite(usage.outputTokens)) out.push(`${where}.outputTokens is ${String(usage.outputTokens)}`);
  if (usage.contextWindow !== undefined && !(isNonNegativeFinite(usage.contextWindow) && usage.contextWindow > 0)) {
    out.push(`${where}.contextWindow is ${String(usage.contextWindow)}`);
  }
  optionalTimestamp(usage.timestamp, `${where}.timestamp`, out);
}

function optionalString(value: unknown, name: string, out: string[], nonEmpty: boolean): void {
  if (value === undefined) return;
  if (typeof value !== 'string') out.push(`${name} is not a string`);
  else if (nonEmpty && value === '') out.push(`${name} is an empty string (leave it undefined when unknown)`);
}

function optionalTimestamp(value: unknown, name: string, out: string[]): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) out.push(`${name} ${JSON.stringify(value)} is not an ISO-8601 time`);
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isNonNegativeFinite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function describeCall(call: ToolCall): string {
  try {
    return `${String(call.kind)} ${String(call.rawName)}${call.kind === 'shell' ? ` ${JSON.stringify(call.command)}` : ''}`;
  } catch {
    return 'unprintable';
  }
}
