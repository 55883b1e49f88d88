import type { ResolvedConfig } from '../config/config-schema.ts';
import type { CheckpointOutcome } from '../get-checkpoint-types.ts';
import { projectKey, type BlockFinding, type PendingBlock } from '../state/block-outcomes.ts';
import { normalizeTurnId } from '../state/session-state.ts';

const VERIFY_SUFFIX = ':verify';

/**
 * The record of a block about to be claimed: each finding the engine reported, with how its outcome
 * will be checked (the evidence the block asked for, as configured now, so a later config change does
 * not rewrite the question), and the block's place in the turn (its last call).
 *
 * Findings: every required action (by `source`: a category, its verify step, a follow-up), then every
 * observation but verification gaps (those restate a required action): unresolved errors by their
 * failed calls, the others advisory. A block with no engine finding (a context checkpoint) gets one
 * advisory finding, `mode:<mode>`.
 */
export function pendingBlockOf(outcome: CheckpointOutcome, config: Pick<ResolvedConfig, 'categories' | 'followUps'>, turnKey: string, projectRoot: string, now: Date): PendingBlock {
  const result = outcome.result;
  const findings: BlockFinding[] = [];
  const categories = new Set<string>();
  for (const action of result?.requiredActions ?? []) {
    const finding = actionFinding(action.source, config);
    findings.push(finding);
    if (finding.category !== undefined) categories.add(finding.category);
    for (const f of result?.followUps ?? []) if (f.id === action.source) for (const c of f.triggeredBy) categories.add(c);
  }
  for (const o of result?.observations ?? []) {
    switch (o.kind) {
      case 'verification-gap':
        continue;
      case 'unresolved-error':
        findings.push({ rule: o.patternId === undefined ? o.kind : `${o.kind}:${o.patternId}`, check: { kind: 'error-resolved', callIds: o.callIds } });
        continue;
      case 'edit-without-read':
      case 'blast-radius':
      case 'plan-drift':
        findings.push({ rule: o.kind, check: { kind: 'advisory' } });
        continue;
    }
  }
  if (findings.length === 0) findings.push({ rule: `mode:${outcome.mode}`, check: { kind: 'advisory' } });
  const calls = outcome.timeline?.hasData === true ? outcome.timeline.calls : [];
  const anchor = calls[calls.length - 1]?.id;
  return {
    at: now.toISOString(),
    turnId: normalizeTurnId(turnKey),
    project: projectKey(projectRoot),
    ...(anchor === undefined ? {} : { anchorCallId: anchor }),
    categories: [...categories],
    findings: dedupe(findings),
  };
}

function actionFinding(source: string, config: Pick<ResolvedConfig, 'categories' | 'followUps'>): BlockFinding {
  const category = config.categories.find((c) => c.id === source);
  if (category !== undefined) return withEvidence(source, category.id, category.evidence);
  if (source.endsWith(VERIFY_SUFFIX)) {
    const owner = config.categories.find((c) => c.id === source.slice(0, -VERIFY_SUFFIX.length));
    if (owner?.verify !== undefined) return withEvidence(source, owner.id, owner.verify.evidence);
  }
  const followUp = config.followUps.find((f) => f.id === source);
  if (followUp !== undefined) return withEvidence(source, undefined, followUp.evidence);
  return { rule: source, check: { kind: 'advisory' } };
}

/** An action with no evidence configured cannot be checked: advisory. */
function withEvidence(rule: string, category: string | undefined, evidence: readonly string[]): BlockFinding {
  return {
    rule,
    ...(category === undefined ? {} : { category }),
    check: evidence.length === 0 ? { kind: 'advisory' } : { kind: 'evidence', evidence },
  };
}

/** One finding per rule (merged error observations keep every failed call). */
function dedupe(findings: readonly BlockFinding[]): BlockFinding[] {
  const out: BlockFinding[] = [];
  for (const f of findings) {
    const at = out.findIndex((x) => x.rule === f.rule);
    if (at === -1) {
      out.push(f);
      continue;
    }
    const prev = out[at]!;
    if (prev.check.kind === 'error-resolved' && f.check.kind === 'error-resolved') {
      out[at] = { ...prev, check: { kind: 'error-resolved', callIds: [...new Set([...prev.check.callIds, ...f.check.callIds])] } };
    }
  }
  return out;
}
