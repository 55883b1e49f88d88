import { stat } from 'node:fs/promises';
import type { ResolvedConfig } from '../config/config-schema.ts';
import { loadTurnEndConfig } from '../config/load-turn-end-config.ts';
import { classifyBlockOutcome } from '../engine/classify-block-outcome.ts';
import { findProjectRoot } from '../project-root.ts';
import { outcomeRecord, readBlockOutcomes, type BlockOutcomeRecord } from '../state/block-outcomes.ts';
import { offSwitchPath, readOffSwitch } from '../state/off-switches.ts';
import { hasPendingBlockMarker } from '../state/pending-block-marker.ts';
import { normalizeTurnId } from '../state/session-state.ts';
import { readSessionState } from '../state/session-state-store.ts';
import { settlePendingBlock } from '../state/settle-block-outcome.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import type { TurnEndEvent, TurnEndLog } from './turn-end-event.ts';

/** What a route knows about the stop that may settle a pending block. */
export interface BlockStop {
  /**
   * The stop ends the blocked turn's own continuation whatever the turn key says: the escape-hatch
   * stop (`stop_hook_active`), or the tmux turn that answers our checkpoint.
   */
  readonly continuation: boolean;
  /** The stop's timeline, when the pipeline read it; else it is read here (only when a block is pending). */
  readonly timeline?: TurnTimeline;
  /** The configuration the pipeline loaded; else it is loaded here. */
  readonly config?: ResolvedConfig;
  /** An off switch is on (the pipeline or the route read it); else it is read here. */
  readonly switchedOff?: boolean;
}

const NO_LOG: TurnEndLog = { warn: () => undefined, debug: () => undefined };
/** Longest wait for the session lock: a busy lock leaves the block pending for a later stop. */
const LOCK_WAIT_MS = 1000;

/**
 * Settle the session's pending block at a stop (any route): classify what the response did with it
 * (`classifyBlockOutcome`) and record the outcome in the session state. Does nothing, reading one flag
 * file, when no block is pending. Reads the transcript and configuration itself when the stop did not
 * (the escape-hatch stop passes before the pipeline reads anything). Never throws; never changes the
 * stop's verdict.
 */
export async function settleBlockAtStop(event: TurnEndEvent, stop: BlockStop): Promise<BlockOutcomeRecord | undefined> {
  const log = event.log ?? NO_LOG;
  const sessionId = event.sessionId;
  if (sessionId === undefined) return undefined;
  const location = { stateDir: event.stateDir, agent: event.agent, sessionId };
  try {
    if (stop.timeline === undefined && !hasPendingBlockMarker(location)) return undefined;
    const { state } = await readSessionState(location);
    const pending = readBlockOutcomes(state).pending;
    if (pending === undefined) {
      // A stale flag: the settle below clears it.
      await settlePendingBlock(location, () => undefined, { lockWaitMs: LOCK_WAIT_MS });
      return undefined;
    }
    const config = stop.config ?? (await configOf(event));
    const switchedOff =
      stop.switchedOff ?? (await readOffSwitch({ stateDir: event.stateDir, sessionId, projectRoot: findProjectRoot(event.cwd), env: event.env })).off;
    const timeline = stop.timeline ?? (config === undefined ? undefined : await readTimeline(event, config, state.delivered as readonly string[] | undefined, log));
    const turnKey = event.turnKey(timeline);
    const sameTurn = stop.continuation || (turnKey !== undefined && normalizeTurnId(turnKey) === pending.turnId);
    const projectRoot = findProjectRoot(event.cwd);
    const now = event.now();
    const settled = await settlePendingBlock(
      location,
      (current) => {
        // Another stop settled it (and a new block may be pending): decide only the one read.
        if (current.at !== pending.at || current.turnId !== pending.turnId) return undefined;
        const classified = classifyBlockOutcome({
          pending: current,
          timeline,
          sameTurn,
          switchedOff: switchedOff || config?.enabled === false,
          escapeHatchPath: offSwitchPath(event.stateDir, { kind: 'session', sessionId }),
          base: { root: projectRoot, cwd: timeline?.cwd ?? event.cwd },
          config: config ?? { errorPatterns: [], searchCommands: [] },
        });
        return outcomeRecord(current, classified.outcome, classified.findings, now);
      },
      { lockWaitMs: LOCK_WAIT_MS },
    );
    for (const note of settled.diagnostics) log.debug(note);
    if (settled.record !== undefined) log.debug(`block outcome: ${settled.record.outcome} (${settled.record.findings.map((f) => `${f.rule} ${f.outcome}`).join(', ')})`);
    return settled.record;
  } catch (error) {
    log.debug(`block outcome: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

async function configOf(event: TurnEndEvent): Promise<ResolvedConfig | undefined> {
  const loaded = await loadTurnEndConfig({
    cwd: event.cwd,
    env: event.env,
    ...(event.unusableConfigPath === undefined ? {} : { unusablePath: event.unusableConfigPath }),
    ...(event.configSections === undefined ? {} : { sections: event.configSections }),
  });
  return loaded.kind === 'loaded' ? loaded.loaded.config : undefined;
}

/** The stop's turn as the reader tells it (undefined: no transcript, or the reader failed). */
async function readTimeline(event: TurnEndEvent, config: ResolvedConfig, delivered: readonly string[] | undefined, log: TurnEndLog): Promise<TurnTimeline | undefined> {
  if (event.transcript.kind === 'none') return undefined;
  try {
    const reader = await event.reader();
    const path = event.transcript.kind === 'path' ? event.transcript.path : await reader.locateTranscript(event.transcript.request);
    if (path === undefined || !(await stat(path)).isFile()) return undefined;
    const budget = Math.max(0, event.deadlineAt - Date.now());
    return await reader.readTurn({
      transcriptPath: path,
      checkpointPrefix: config.messages.prefix,
      checkpointMessages: config.messages,
      maxBytes: config.transcriptMaxBytes,
      hint: event.hint,
      ...(Array.isArray(delivered) && delivered.length > 0 ? { deliveredDigests: delivered } : {}),
      signal: AbortSignal.timeout(budget),
      deadlineAt: Date.now() + budget,
    });
  } catch (error) {
    log.debug(`block outcome: the transcript could not be read: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
