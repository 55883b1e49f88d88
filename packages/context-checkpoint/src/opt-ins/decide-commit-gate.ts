import { readSessionState, type ResolvedConfig, type SessionStateLocation } from '@agent-checkpoint/core';
import { claimCommitGateBlock, commitGateFor, type CommitGateTurn } from '../state/claim-commit-gate.ts';
import { checkCommitGate } from './commit-gate.ts';
import { commitGateConfigOf } from '../config/context-config.ts';

/** Time kept back from the deadline for the claim and the output. */
const RESERVE_MS = 250;

/** Input of {@link decideCommitGate}: a stop of a turn whose block armed the gate (or may have). */
export interface DecideCommitGateInput {
  readonly location: SessionStateLocation;
  readonly turn: CommitGateTurn;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The configuration when the caller has it; otherwise loaded, only once the gate is known armed. */
  readonly config: ResolvedConfig | (() => Promise<ResolvedConfig>);
  /** The route's deadline (`Date.now()` clock, ms). */
  readonly deadlineAt: number;
  readonly now: Date;
  readonly log: { debug(note: string): void; warn(note: string): void };
}

/** The gate's verdict: its one extra block, or a pass and why (`stateUnavailable`: the claim could not be recorded). */
export type CommitGateDecision =
  | { readonly kind: 'block'; readonly message: string; readonly files: readonly string[]; readonly turnId: string }
  | { readonly kind: 'pass'; readonly detail: string; readonly stateUnavailable: boolean };

/**
 * The commit gate (seed 001, opt-in `commitGate`) on a stop of a turn we already blocked: when gated
 * files are still uncommitted, block **once** more with "You have uncommitted code changes. Commit
 * your work before stopping." and the `Changed:` list; otherwise pass.
 *
 * The hard cap: the gate's block is claimed atomically in the session state (`claimCommitGateBlock`),
 * at most one per turn, so with `maxBlocksPerTurn: 1` a turn sees at most two blocks in all. Every
 * failure (config, git, state) passes. Never throws.
 */
export async function decideCommitGate(input: DecideCommitGateInput): Promise<CommitGateDecision> {
  const pass = (detail: string, stateUnavailable = false): CommitGateDecision => ({ kind: 'pass', detail, stateUnavailable });
  try {
    const { state } = await readSessionState(input.location);
    const armed = commitGateFor(state, input.turn);
    if (armed.verdict === 'pass') return pass(armed.reason);

    const config = typeof input.config === 'function' ? await input.config() : input.config;
    const gate = commitGateConfigOf(config);
    if (gate === undefined || !config.enabled) return pass('commitGate is off in the configuration');
    const budget = Math.max(0, input.deadlineAt - Date.now() - RESERVE_MS * 2);
    const check = await checkCommitGate({ cwd: input.cwd, config, gate, env: input.env, signal: AbortSignal.timeout(budget) });
    for (const note of check.diagnostics) input.log.debug(note);
    if (check.message === undefined) return pass('no gated file is uncommitted');

    const { claim, diagnostics } = await claimCommitGateBlock({
      ...input.location,
      ...input.turn,
      now: input.now,
      lockWaitMs: Math.max(0, Math.min(3000, input.deadlineAt - Date.now() - RESERVE_MS)),
    });
    for (const note of diagnostics) input.log.warn(note);
    if (claim.verdict === 'pass') return pass(claim.reason, claim.reason === 'state-unavailable');
    return { kind: 'block', message: check.message, files: check.files, turnId: claim.turnId };
  } catch (error) {
    return pass(`failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
