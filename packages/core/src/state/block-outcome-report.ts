import { readdirSync } from 'node:fs';
import { isAgentId } from '../agent-id.ts';
import { BLOCK_OUTCOME_KINDS, projectKey, readBlockOutcomes, type BlockOutcomeKind, type BlockOutcomeRecord } from './block-outcomes.ts';
import { readSessionState } from './session-state-store.ts';
import { sessionsDir } from './state-files.ts';

/** How many blocks (or findings) ended in each outcome, and the share acted on. */
export interface OutcomeCounts {
  readonly blocks: number;
  readonly outcomes: Readonly<Record<BlockOutcomeKind, number>>;
  /**
   * Acted on, out of the blocks whose outcome is known (acted on, disputed, ignored, switched off;
   * `unknown` left out). Undefined when none is known.
   */
  readonly precision: number | undefined;
}

/** `report`'s block outcomes of one project. */
export interface BlockOutcomeReport {
  /** Session state files read (those of other projects included). */
  readonly sessionsRead: number;
  /** Every settled block of the project: one per block. */
  readonly total: OutcomeCounts;
  /** Blocks still waiting for the stop that settles them. */
  readonly pending: number;
  /** Per category the blocked turn changed (a block counts under each), with the block's outcome. */
  readonly byCategory: Readonly<Record<string, OutcomeCounts>>;
  /** Per rule (required action source, observation kind), with each finding's own outcome. */
  readonly byRule: Readonly<Record<string, OutcomeCounts>>;
  /** ISO-8601 times of the oldest and newest block counted. */
  readonly from?: string;
  readonly to?: string;
}

/** Session files `report` reads at most (the directory is pruned after 30 days). */
const MAX_SESSION_FILES = 5000;

/**
 * The block outcomes of one project, from every session state in the state directory. Sessions are
 * pruned after 30 days and each keeps its last 32 outcomes, so this is the recent record, not all
 * time. Unreadable files are skipped. Never throws.
 */
export async function blockOutcomeReport(options: { readonly stateDir: string; readonly projectRoot: string }): Promise<BlockOutcomeReport> {
  const project = projectKey(options.projectRoot);
  let names: string[];
  try {
    names = readdirSync(sessionsDir(options.stateDir)).filter((n) => n.endsWith('.json')).slice(0, MAX_SESSION_FILES);
  } catch {
    names = [];
  }
  const records: BlockOutcomeRecord[] = [];
  let pending = 0;
  let sessionsRead = 0;
  for (const name of names) {
    const agent = name.slice(0, name.indexOf('-'));
    if (!isAgentId(agent)) continue;
    const { state, diagnostics } = await readSessionState({ stateDir: options.stateDir, agent, sessionId: name.slice(agent.length + 1, -'.json'.length) });
    if (diagnostics.length > 0) continue;
    sessionsRead += 1;
    const outcomes = readBlockOutcomes(state);
    records.push(...outcomes.outcomes.filter((r) => r.project === project));
    if (outcomes.pending?.project === project) pending += 1;
  }
  return summarizeBlockOutcomes(records, pending, sessionsRead);
}

/** The counts of {@link BlockOutcomeReport} from settled records. Pure. */
export function summarizeBlockOutcomes(records: readonly BlockOutcomeRecord[], pending = 0, sessionsRead = 0): BlockOutcomeReport {
  const total = tally();
  const byCategory = new Map<string, ReturnType<typeof tally>>();
  const byRule = new Map<string, ReturnType<typeof tally>>();
  const bucket = (map: Map<string, ReturnType<typeof tally>>, key: string): ReturnType<typeof tally> => {
    let t = map.get(key);
    if (t === undefined) map.set(key, (t = tally()));
    return t;
  };
  const times: string[] = [];
  for (const record of records) {
    times.push(record.at);
    total.add(record.outcome);
    for (const category of new Set(record.categories)) bucket(byCategory, category).add(record.outcome);
    for (const finding of record.findings) bucket(byRule, finding.rule).add(finding.outcome);
  }
  times.sort();
  const done = (map: Map<string, ReturnType<typeof tally>>): Record<string, OutcomeCounts> =>
    Object.fromEntries([...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, t]) => [k, t.counts()]));
  return {
    sessionsRead,
    total: total.counts(),
    pending,
    byCategory: done(byCategory),
    byRule: done(byRule),
    ...(times.length === 0 ? {} : { from: times[0], to: times[times.length - 1] }),
  };
}

function tally(): { add(outcome: BlockOutcomeKind): void; counts(): OutcomeCounts } {
  const outcomes = Object.fromEntries(BLOCK_OUTCOME_KINDS.map((k) => [k, 0])) as Record<BlockOutcomeKind, number>;
  let blocks = 0;
  return {
    add(outcome) {
      blocks += 1;
      outcomes[outcome] += 1;
    },
    counts() {
      const known = blocks - outcomes.unknown;
      return { blocks, outcomes: { ...outcomes }, precision: known === 0 ? undefined : outcomes['acted-on'] / known };
    },
  };
}
