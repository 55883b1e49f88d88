import type { ResolvedConfig, SessionState, SessionStateLocation } from '@agent-checkpoint/core';
import { commitGateConfigOf } from '../config/context-config.ts';
import { armCommitGate, markCommitGate } from './commit-gate-marker.ts';

/** The commit gate's part of a block claim; undefined when `commitGate` is off. */
export interface CommitGateClaim {
  /** Pass to the claim (core's `onGranted`): arms the gate with the granted block, under the lock. */
  readonly onGranted: (state: SessionState, now: Date, turnId: string) => SessionState;
  /** Call once the block was granted: the session's cheap flag for the escape-hatch stop; a diagnostic when it failed. */
  readonly afterGranted: () => string | undefined;
}

/** The commit gate's part of claiming a block in `location`, when `config` turns it on. */
export function commitGateClaim(config: ResolvedConfig, location: SessionStateLocation, prompt: string | undefined): CommitGateClaim | undefined {
  if (commitGateConfigOf(config) === undefined) return undefined;
  return { onGranted: armCommitGate(prompt), afterGranted: () => markCommitGate(location) };
}
