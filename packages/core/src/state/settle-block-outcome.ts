import { readdirSync } from 'node:fs';
import { AGENT_IDS, isAgentId } from '../agent-id.ts';
import { projectKey, readBlockOutcomes, settleAll, withSettledBlock, type BlockOutcomeRecord, type PendingBlock } from './block-outcomes.ts';
import type { OffSwitchScope } from './off-switches.ts';
import { clearPendingBlockMarker } from './pending-block-marker.ts';
import { errorMessage, readSessionState, updateSessionState } from './session-state-store.ts';
import { sessionsDir, type SessionStateLocation } from './state-files.ts';

/** Result of settling a session's pending block. */
export interface SettleBlockResult {
  /** The outcome recorded; undefined when nothing was pending (or `decide` declined). */
  readonly record?: BlockOutcomeRecord;
  readonly diagnostics: readonly string[];
}

/**
 * Settle the session's pending block, if any, under the session lock: `decide` turns it into its
 * outcome record (undefined: leave it pending). The flag file goes with it. Never throws: a state
 * that cannot be locked leaves the block pending, with a diagnostic.
 */
export async function settlePendingBlock(
  location: SessionStateLocation,
  decide: (pending: PendingBlock) => BlockOutcomeRecord | undefined,
  options: { readonly lockWaitMs?: number } = {},
): Promise<SettleBlockResult> {
  try {
    const result = await updateSessionState(
      location,
      (state) => {
        const { pending } = readBlockOutcomes(state);
        const record = pending === undefined ? undefined : decide(pending);
        return { state: record === undefined ? undefined : withSettledBlock(state, record), value: { record, pending } };
      },
      options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs },
    );
    if (result.value.pending === undefined || result.value.record !== undefined) clearPendingBlockMarker(location);
    return { ...(result.value.record === undefined ? {} : { record: result.value.record }), diagnostics: result.diagnostics };
  } catch (error) {
    return { diagnostics: [`block outcome: ${errorMessage(error)}`] };
  }
}

/** Flag files a switch command examines at most (the sessions directory is pruned after 30 days). */
const MAX_FLAGS_SCANNED = 5000;

/**
 * The user turned checkpoints off (`off --session/--current/--project/--all`): every pending block in
 * the switch's scope becomes `switched-off` now, before the next stop could see it. Pending blocks are
 * found by their flag files, so sessions with nothing pending are never read. Never throws.
 */
export async function settleSwitchedOff(options: { readonly stateDir: string; readonly scope: OffSwitchScope; readonly now?: Date }): Promise<SettleBlockResult[]> {
  const now = options.now ?? new Date();
  const scope = options.scope;
  const settle = (location: SessionStateLocation, inScope: (p: PendingBlock) => boolean): Promise<SettleBlockResult> =>
    settlePendingBlock(location, (pending) => (inScope(pending) ? settleAll(pending, 'switched-off', now) : undefined));
  if (scope.kind === 'session') {
    return Promise.all(AGENT_IDS.map((agent) => settle({ stateDir: options.stateDir, agent, sessionId: scope.sessionId }, () => true)));
  }
  const project = scope.kind === 'project' ? projectKey(scope.projectRoot) : undefined;
  const results: SettleBlockResult[] = [];
  for (const location of await flaggedSessions(options.stateDir)) {
    results.push(await settle(location, (p) => project === undefined || p.project === project));
  }
  return results;
}

/** The sessions whose flag says a block is pending (their state file names the raw session id). */
async function flaggedSessions(stateDir: string): Promise<SessionStateLocation[]> {
  let names: string[];
  try {
    names = readdirSync(sessionsDir(stateDir)).filter((n) => n.endsWith('.json.outcome')).slice(0, MAX_FLAGS_SCANNED);
  } catch {
    return [];
  }
  const out: SessionStateLocation[] = [];
  for (const name of names) {
    const agent = name.slice(0, name.indexOf('-'));
    if (!isAgentId(agent)) continue;
    const safeId = name.slice(agent.length + 1, -'.json.outcome'.length);
    // The file name holds the safe id; the state file holds the raw one, which locates the same file.
    const { state } = await readSessionState({ stateDir, agent, sessionId: safeId });
    out.push({ stateDir, agent, sessionId: state.sessionId });
  }
  return out;
}
