import { assertNever, forTerminal, type ToolCallOrigin } from '@agent-checkpoint/core';
import { profileOf } from '../agents/profiles.ts';
import type { TerminalStyle } from '@agent-checkpoint/setup-kit';
import type { EvidenceTiming, ExplainedCall, ExplainReport } from './explain-turn.ts';

const MAX_COMMAND = 110;

/**
 * The human form of `explain`: what the agent did, which files count, what each category expected
 * and found, what looks wrong and because of which call, and the message (or why there is none).
 */
export function renderExplain(untrusted: ExplainReport, style: TerminalStyle, tool = 'agent-checkpoint-hook'): string {
  // Everything in the report comes from the working tree, the transcript or the config (file names,
  // commands, prompts, message texts): no control character may reach the terminal, and a name with
  // a line break must not forge a line of this report. The message keeps its lines.
  const report = forTerminalDeep(untrusted);
  const s = style;
  const out: string[] = [];
  const heading = (text: string): void => void out.push('', s.bold(text));
  const timeline = report.outcome.timeline;

  out.push(`${s.bold('agent-checkpoint explain')} · ${profileOf(report.agent).title} · ${report.cwd}`);
  out.push('');
  const found = { given: 'given with --transcript', session: 'of --session', latest: 'newest session for this directory', none: '' }[report.transcript.found];
  if (report.transcript.path === undefined) {
    out.push(`Transcript  ${s.yellow('none found')} — only git is used: every uncommitted file counts. Pass --transcript FILE or --session ID.`);
  } else {
    out.push(`Transcript  ${report.transcript.path} ${s.dim(`(${found})`)}`);
    if (timeline !== undefined && timeline.hasData) {
      const parts = [
        timeline.startedAt === undefined ? undefined : `turn started ${timeline.startedAt}`,
        `${report.calls.length} tool call${report.calls.length === 1 ? '' : 's'}${subagentCount(report.calls)}`,
        timeline.prompt === undefined ? undefined : `prompt: ${JSON.stringify(oneLine(timeline.prompt, 70))}`,
      ].filter((p) => p !== undefined);
      out.push(`            ${parts.join(' · ')}`);
    } else {
      const why = timeline?.diagnostics.map((d) => `${d.code}: ${d.message}`).join('; ');
      out.push(`            ${s.yellow('no turn data')}${why ? ` (${why})` : ''} — every uncommitted file counts`);
    }
  }
  if (report.sessionId !== undefined) out.push(`Session     ${report.sessionId}`);
  out.push(`Config      ${report.configSources.map(describeSource).join(' → ')}`);
  if (report.untrustedConfig !== undefined) {
    const u = report.untrustedConfig;
    out.push(
      `Trust       ${s.yellow(`untrusted project config${u.state === 'changed' ? ' (changed since it was trusted)' : ''}: these keys ignored: ${u.ignoredKeys.join(', ')}`)}, run \`${tool} trust\``,
    );
  }

  heading('1. What the agent did this turn');
  if (report.calls.length === 0) out.push(`   ${s.dim('(no tool calls)')}`);
  const kindWidth = Math.max(...report.calls.map((c) => c.kind.length), 4);
  const nameWidth = Math.max(...report.calls.map((c) => c.rawName.length), 4);
  for (const call of report.calls) {
    const by = call.origin === undefined ? '' : `  ${s.cyan(originLabel(call.origin))}`;
    out.push(`   ${s.dim(`#${call.n}`.padEnd(4))} ${call.kind.padEnd(kindWidth)}  ${call.rawName.padEnd(nameWidth)}  ${outcomeCell(call, s)}  ${what(call, report.cwd)}${by}`);
  }

  heading('2. Files changed by this turn (git, attributed through the transcript)');
  if (report.files.length === 0) out.push(`   ${s.dim('(none: nothing this turn touched is changed in git)')}`);
  const pathWidth = Math.max(...report.files.map((f) => f.path.length), 4);
  for (const file of report.files) {
    const uncertain = file.uncertainCommit === true ? s.yellow(' (from a commit of the start second that could not be placed)') : '';
    out.push(`   ${file.path.padEnd(pathWidth)}  ${s.dim(reasonText(file.reason, file.calls, report.calls))}${uncertain}`);
  }
  if (report.startSecondCommits !== undefined) {
    out.push('');
    out.push(`   Commits made in the second the turn started (git keeps whole seconds):`);
    for (const commit of report.startSecondCommits) out.push(`   ${commit.oid.slice(0, 12)}  ${startSecondText(commit, s)}`);
  }

  heading('3. What these changes require, and the evidence found');
  if (report.categories.length === 0 && report.followUps.length === 0) {
    out.push(`   ${s.dim('(no category matched these files: see docs/presets.md and .agent-checkpoint.json)')}`);
  }
  for (const category of report.categories) {
    const mark = category.required ? s.red('✗') : category.action === '' ? s.dim('·') : s.green('✓');
    out.push(`   ${mark} ${s.bold(category.label)}  ${s.dim(category.files.join(', '))}${category.source === undefined ? '' : s.dim(`  (from ${describeSource(category.source)})`)}`);
    if (category.action === '') {
      out.push(`       ${s.dim('no action for this category')}`);
      continue;
    }
    out.push(`       action    ${category.action}`);
    if (category.required) out.push(`       evidence  ${missingText(category, s)} → the action is required`);
    else out.push(`       evidence  ${s.green('found')}: \`${category.evidenceMatched ?? '?'}\` in ${callRef(category.evidenceCall)} → done`);
  }
  const labels = new Map(report.categories.map((c) => [c.id, c.label]));
  for (const followUp of report.followUps) {
    const mark = followUp.status === 'required' ? s.red('✗') : s.green('✓');
    const state =
      followUp.status === 'required'
        ? `${missingText(followUp, s)} → required`
        : followUp.status === 'satisfied'
          ? `${s.green('found')}: \`${followUp.evidenceMatched ?? '?'}\` in ${callRef(followUp.evidenceCall)} → done`
          : 'covered by a required category action';
    out.push(`   ${mark} follow-up ${s.bold(followUp.id)} ${s.dim(`(triggered by ${followUp.triggeredBy.map((id) => labels.get(id) ?? id).join(', ')})`)}`);
    out.push(`       action    ${followUp.action}`);
    out.push(`       evidence  ${state}`);
  }

  heading('4. Observations');
  if (report.observations.length === 0) out.push(`   ${s.dim('(none)')}`);
  for (const observation of report.observations) {
    const from = observation.calls.length === 0 ? '' : s.dim(`  ← ${observation.calls.map((n) => `#${n}`).join(', ')}`);
    out.push(`   - ${observation.text}${from}`);
  }

  heading('Decision');
  out.push(`   ${decisionText(report, s)}`);
  if (report.message !== undefined) {
    out.push('');
    for (const line of report.message.split('\n')) out.push(`   ${s.dim('│')} ${line}`);
  }
  out.push('');
  out.push(`   Now: ${deliveryText(report, s)}`);

  heading('Diagnostics');
  if (report.diagnostics.length === 0) out.push(`   ${s.dim('(none)')}`);
  for (const line of report.diagnostics) out.push(`   ${s.yellow('!')} ${line}`);
  out.push('');
  return out.join('\n');
}

function describeSource(source: ExplainReport['configSources'][number]): string {
  switch (source.kind) {
    case 'default':
      return 'built-in defaults';
    case 'preset':
      return `preset ${source.name}${source.detected === true ? ' (detected)' : ''}`;
    case 'user-file':
      return `user file ${source.name}`;
    case 'project-file':
      return `project file ${source.name}`;
    default:
      return String((source as { name?: unknown }).name);
  }
}

/** `[subagent general-purpose a20f94b6…]`: who made a call that is not the main agent's. */
function originLabel(origin: ToolCallOrigin): string {
  const kind = origin.kind;
  switch (kind) {
    case 'subagent':
      return `[subagent${origin.agentType === undefined ? '' : ` ${origin.agentType}`} ${origin.agentId}]`;
    default:
      return assertNever(kind);
  }
}

function subagentCount(calls: readonly ExplainedCall[]): string {
  const count = calls.filter((call) => call.origin?.kind === 'subagent').length;
  return count === 0 ? '' : ` (${count} by subagents)`;
}

function outcomeCell(call: ExplainedCall, s: TerminalStyle): string {
  const exit = call.exitCode === undefined ? '' : ` exit ${call.exitCode}`;
  // `?`: the call ran but the transcript does not say how it ended (unknown); `…`: no result (pending).
  const text = `${call.outcome === 'success' ? '✓' : call.outcome === 'error' ? '✗' : call.outcome === 'unknown' ? '?' : '…'}${exit}`.padEnd(8);
  return call.outcome === 'success' ? s.green(text) : call.outcome === 'error' ? s.red(text) : s.yellow(text);
}

function what(call: ExplainedCall, cwd: string): string {
  if (call.command !== undefined) return oneLine(call.command, MAX_COMMAND);
  // Paths inside the session's directory are shown relative to it.
  return call.paths.map((p) => (p.startsWith(`${cwd}/`) ? p.slice(cwd.length + 1) : p)).join(', ');
}

/** "not found this turn", or "`npm test` ran in #4, but before the last change (#6)". */
function missingText(item: EvidenceTiming, s: TerminalStyle): string {
  if (item.earlierEvidence !== undefined && item.lastChangeCall !== undefined) {
    return `\`${item.earlierEvidence.evidence}\` ran in #${item.earlierEvidence.call}, ${s.red(`but before the last change (#${item.lastChangeCall})`)}`;
  }
  return `${s.red('not found')} this turn`;
}

function callRef(n: number | undefined): string {
  return n === undefined ? 'the transcript' : `#${n}`;
}

function reasonText(reason: ExplainReport['files'][number]['reason'], calls: readonly number[], all: readonly ExplainedCall[]): string {
  const refs = calls.map((n) => `#${n}`).join(', ');
  switch (reason) {
    case 'tool-mutation': {
      const kinds = new Set(calls.map((n) => all[n - 1]?.kind));
      const verb = kinds.has('write') && kinds.size === 1 ? 'written' : kinds.has('patch') && kinds.size === 1 ? 'patched' : 'edited';
      return `${verb} by ${refs}`;
    }
    case 'shell-mutation':
      return `changed by the command ${refs}`;
    case 'modified-during-turn':
      return 'modified on disk after the turn started (a formatter, generator or unparsed command)';
    case 'committed-during-turn':
      return 'committed during the turn';
    case 'fallback-all-uncommitted':
      return 'uncommitted (no transcript data, so every uncommitted file counts)';
    case 'truncated-unread-part':
      return 'uncommitted, last modified before the part of the turn that was read (transcript capped): it may have changed there';
    default:
      return reason;
  }
}

/** `before the prompt, not the turn's (its loose object was written before the prompt)`, and the like. */
function startSecondText(commit: NonNullable<ExplainReport['startSecondCommits']>[number], s: TerminalStyle): string {
  const verdict = commit.verdict;
  const why = evidenceText(commit.evidence);
  switch (verdict) {
    case 'before-turn':
      return `${s.green('before the prompt')}: not the turn's ${s.dim(`(${why})`)}`;
    case 'during-turn':
      return `${s.bold('during the turn')}: the turn's ${s.dim(`(${why})`)}`;
    case 'unknown':
      return `${s.yellow('unknown')}: its files count only if the turn could have made a commit ${s.dim(`(${why})`)}`;
    default:
      return assertNever(verdict);
  }
}

function evidenceText(evidence: NonNullable<ExplainReport['startSecondCommits']>[number]['evidence']): string {
  switch (evidence) {
    case 'loose-object':
      return 'the time of its loose object file';
    case 'pack':
      return 'it is packed, and no pack written since the turn started holds it';
    case 'reflog':
      return 'HEAD\'s reflog was last written before the prompt, ending at the branch tip';
    case 'none':
      return 'nothing on disk tells: packed since, whole-second file times, or unreadable';
    default:
      return assertNever(evidence);
  }
}

function decisionText(report: ExplainReport, s: TerminalStyle): string {
  const mode = s.bold(report.mode);
  const silent = report.message === undefined;
  switch (report.mode) {
    case 'actionable':
      return `${mode}: something is missing or looks wrong → the hook would block the stop with this message:`;
    case 'all-clear':
      return silent ? `${mode}: every expected follow-up was observed → the hook stays silent` : `${mode}: every expected follow-up was observed → message (silentWhenAllClear is false):`;
    case 'no-changes':
      return silent ? `${mode}: no code changed this turn (only docs, or nothing) → the hook stays silent` : `${mode}: no code changed → message (silentWhenNoChanges is false):`;
    case 'disabled':
      return `${mode}: "enabled": false in the configuration → the hook stays silent`;
    case 'not-a-repo':
      return `${mode}: ${report.cwd} is not inside a git repository, so there is no file axis → the hook stays silent`;
    case 'generic-fallback':
      return `${mode}: git could not be read (see Diagnostics) → the hook would send the generic message:`;
    default:
      return silent ? `${mode} → the hook stays silent` : `${mode} → the hook would send:`;
  }
}

function deliveryText(report: ExplainReport, s: TerminalStyle): string {
  const { offSwitch, loopGuard } = report.delivery;
  if (offSwitch.off) return s.yellow(`checkpoints are switched off (${offSwitch.source}: ${offSwitch.detail}), so nothing would be delivered.`);
  if (report.message === undefined) return 'nothing to deliver.';
  if (loopGuard === undefined) return 'no off switch is set; the loop guard was not consulted (no session id).';
  if (loopGuard.verdict === 'allow') return `no off switch is set and the loop guard allows it (${loopGuard.blocksSoFar ?? 0} checkpoint(s) in this turn so far).`;
  return s.yellow(`the loop guard would let this stop pass: ${loopGuard.reason} (${loopGuard.detail}).`);
}

function oneLine(text: string, max: number): string {
  const first = text.split('\n')[0] ?? '';
  const more = text.includes('\n') ? ' …' : '';
  return first.length > max ? `${first.slice(0, max - 1)}…` : `${first}${more}`;
}

/**
 * A copy of `value` with every string passed through `forTerminal`: one line each (line breaks
 * escaped), except the multi-line `message`. Plain objects and arrays are copied; anything else is
 * kept as it is.
 */
function forTerminalDeep<T>(value: T, key?: string): T {
  if (typeof value === 'string') return forTerminal(value, { keepLines: key === 'message' }) as T;
  if (Array.isArray(value)) return value.map((item) => forTerminalDeep(item, key)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forTerminalDeep(v, k)])) as T;
  }
  return value;
}
