import { stat } from 'node:fs/promises';
import { loadTurnEndConfig } from '../config/load-turn-end-config.ts';
import type { LoadedConfig } from '../config/load-config.ts';
import { getCheckpoint } from '../get-checkpoint.ts';
import type { CheckpointOutcome } from '../get-checkpoint-types.ts';
import { claimCheckpoint, type ClaimCheckpointRequest, type ClaimCheckpointResult } from '../state/claim-checkpoint.ts';
import { decideLoopGuard, type LoopGuardDecision } from '../state/loop-guard.ts';
import { findProjectRoot } from '../project-root.ts';
import { readOffSwitch, type OffSwitchState } from '../state/off-switches.ts';
import type { SessionState } from '../state/session-state.ts';
import { readSessionState } from '../state/session-state-store.ts';
import { deliveredMessageDigest } from '../transcript/delivered-message.ts';
import type { TranscriptReader } from '../transcript/transcript-reader.ts';
import { isOwnCheckpoint } from './is-own-checkpoint.ts';
import { pendingBlockOf } from './pending-block-of.ts';
import { settleBlockAtStop } from './settle-block-at-stop.ts';
import { readBlockOutcomes } from '../state/block-outcomes.ts';
import type { TurnEndBlock, TurnEndClaimOptions, TurnEndDecision, TurnEndPass, TurnEndPassReason, TurnEndPreview } from './turn-end-decision.ts';
import type { TurnEndEvent, TurnEndLog } from './turn-end-event.ts';
import type { TurnEndExtension } from './turn-end-extension.ts';
import { configNotices, configUnusableNotice, transcriptNotice, transcriptUnreadableNotice, type TurnEndNotice } from './turn-end-notice.ts';

/**
 * The turn-end pipeline every route runs: from a normalised {@link TurnEndEvent} to a decision.
 *
 * Steps (each may end the turn with a pass, cheapest first): off switches (unless the route read them:
 * `checkTurnEndEarly`) → configuration, loaded once (a FIFO config path is refused unread) →
 * `enabled` → own-checkpoint turn (routes without an escape hatch) → session state (delivered
 * digests; the loop guard, early when the payload's turn id is final) → transcript ‖ git, heuristics,
 * message and extensions (`getCheckpoint`, given the loaded config) → own-checkpoint turn by the
 * transcript → silent → block, with the unlocked loop-guard verdict and the locked `claim`.
 *
 * Nothing is written until the route calls `claim` (extensions excepted: they may write what their
 * own configuration names). Never throws.
 */
export async function runTurnEnd(event: TurnEndEvent): Promise<TurnEndDecision> {
  const evaluated = await evaluate(event, 'decide');
  if (evaluated.decision.kind === 'pass') return evaluated.decision;
  const block = evaluated.decision;
  return { ...block, claim: (options) => claimBlock(event, block, options) };
}

/**
 * The same pipeline read-only, for `explain`: never claims, never writes, runs no extension (they may
 * write), and never stops at the off switch or the early loop guard — it reports them (`offSwitch`,
 * the loop-guard preview) next to the decision the routes would make. Never throws.
 */
export async function previewTurnEnd(event: TurnEndEvent): Promise<TurnEndPreview> {
  const evaluated = await evaluate(event, 'preview');
  const loopGuard = evaluated.decision.kind === 'block' ? evaluated.decision.loopGuard : undefined;
  return {
    decision: evaluated.decision,
    offSwitch: evaluated.offSwitch,
    ...(loopGuard === undefined ? {} : { loopGuard }),
    skippedExtensions: evaluated.skippedExtensions,
  };
}

type Mode = 'decide' | 'preview';

interface Evaluated {
  readonly decision: TurnEndPass | TurnEndBlock;
  readonly offSwitch: OffSwitchState;
  readonly skippedExtensions: readonly string[];
}

const NO_LOG: TurnEndLog = { warn: () => undefined, debug: () => undefined };

async function evaluate(event: TurnEndEvent, mode: Mode): Promise<Evaluated> {
  const log = event.log ?? NO_LOG;
  const timings: Record<string, number> = {};
  let mark = Date.now();
  const lap = (name: string): void => {
    const now = Date.now();
    timings[name] = now - mark;
    mark = now;
  };
  const decide = mode === 'decide';
  // For the user, once per session (the route records what it showed): never part of the decision.
  const notices: TurnEndNotice[] = [];
  let skippedExtensions: readonly string[] = [];

  let offSwitch = event.offSwitch;
  if (offSwitch === undefined) {
    offSwitch = await readOffSwitch({ stateDir: event.stateDir, sessionId: event.sessionId, projectRoot: findProjectRoot(event.cwd), env: event.env });
    for (const note of offSwitch.diagnostics) log.warn(note);
  }
  const done = (decision: TurnEndPass | TurnEndBlock): Evaluated => ({ decision, offSwitch, skippedExtensions });
  const pass = (reason: TurnEndPassReason, detail: string, extra: Partial<TurnEndPass> = {}): Evaluated =>
    done({ kind: 'pass', reason, detail, ...extra, notices: [...notices], timings });
  if (offSwitch.off && decide) {
    // The user switched off after a block: its outcome (one flag stat when nothing is pending).
    await settleBlockAtStop(event, { continuation: false, switchedOff: true });
    return pass('switched-off', `checkpoints are off (${offSwitch.source}: ${offSwitch.detail})`);
  }

  const loadedConfig = await loadTurnEndConfig({
    cwd: event.cwd,
    env: event.env,
    ...(event.unusableConfigPath === undefined ? {} : { unusablePath: event.unusableConfigPath }),
    ...(event.configSections === undefined ? {} : { sections: event.configSections }),
  });
  lap('config');
  if (loadedConfig.kind === 'unusable') {
    log.warn(`${loadedConfig.path} is not a regular file (a FIFO or device would block the hook); letting the stop pass`);
    notices.push(configUnusableNotice(loadedConfig.path));
    return pass('config-unusable', loadedConfig.detail);
  }
  const loaded = loadedConfig.loaded;
  // A broken config file is the user's to fix, and it is ignored as a whole: always say so.
  for (const note of loaded.diagnostics) log.warn(`config: ${note}`);
  notices.push(...configNotices(loaded, event.commands));
  const { config } = loaded;
  if (!config.enabled && decide) {
    await settleBlockAtStop(event, { continuation: false, config, switchedOff: true });
    return pass('disabled', '"enabled": false', { config: loaded });
  }

  const own = event.recogniseOwnCheckpoints === true;
  if (own && config.messages.prefix.trim() === '' && decide) {
    // Without a prefix our own message cannot be recognised: every answer would be checkpointed again.
    return pass('own-checkpoint-unrecognisable', 'messages.prefix is empty: this route cannot recognise its own messages', { config: loaded });
  }

  const state = event.sessionId === undefined ? undefined : await readState(event, event.sessionId, log);
  // Only what we delivered counts as ours: a prompt the user starts with our prefix is a prompt.
  // Unreadable or empty state holds no usable record; the structure test alone decides then.
  const deliveredDigests = state?.delivered;
  const isOwn = (text: string): boolean => isOwnCheckpoint(text, { delivered: deliveredDigests, texts: config.messages });
  if (own && decide && event.hint.prompt !== undefined && isOwn(event.hint.prompt)) {
    // This turn is the agent's answer to our checkpoint (a route without an escape hatch).
    await settleBlockAtStop(event, { continuation: true, config, switchedOff: false });
    return pass('own-checkpoint-turn', 'this turn answered our own checkpoint', { config: loaded });
  }
  // Early guard (no lock): when the payload names the turn for good, a turn that already got its
  // checkpoint passes without reading the transcript or running git. Less information can only make
  // the guard pass less often, so an early pass is always a final pass.
  if (decide && state !== undefined && event.turnIdIsFinal && event.hint.turnId !== undefined) {
    const early = decideLoopGuard({ state: state.state, turnId: event.hint.turnId, stopHookActive: false, now: event.now(), config: config.loopGuard });
    if (early.verdict === 'pass') {
      return pass('loop-guard', `${early.reason}: ${early.detail}`, { loopGuard: { reason: early.reason, detail: early.detail }, config: loaded });
    }
  }

  let extensions: readonly TurnEndExtension[] = [];
  try {
    extensions = typeof event.extensions === 'function' ? await event.extensions(config) : event.extensions;
  } catch (error) {
    log.warn(`extensions could not be loaded: ${describeError(error)}; deciding without them`);
  }
  if (!decide && extensions.length > 0) {
    skippedExtensions = extensions.map((e) => e.name);
    extensions = [];
  }

  const transcript = await findTranscript(event, log, notices);
  if (decide && event.admitTranscript !== undefined) {
    const refused = await event.admitTranscript(transcript?.path);
    if (refused !== undefined) return pass('route-refused', refused, { config: loaded });
  }
  const outcome = await compute(event, loaded, transcript, deliveredDigests, extensions);
  lap('checkpoint');
  for (const note of outcome.diagnostics) log.debug(`checkpoint: ${note}`);
  const unreadable = transcriptNotice(outcome.timeline, event.commands);
  if (unreadable !== undefined) notices.push(unreadable);
  const lastUser = outcome.timeline?.lastUserMessage;
  const answersOwn = own && lastUser !== undefined && isOwn(lastUser);
  if (decide && state !== undefined && readBlockOutcomes(state.state).pending !== undefined) {
    // Before any new block is claimed: what the response did with the pending one.
    await settleBlockAtStop(event, { continuation: answersOwn, config, switchedOff: false, ...(outcome.timeline === undefined ? {} : { timeline: outcome.timeline }) });
  }
  if (answersOwn && decide) {
    return pass('own-checkpoint-turn', 'the last user message in the transcript is our own checkpoint', { config: loaded, outcome });
  }
  if (outcome.decision !== 'message' || outcome.message === undefined || outcome.message === '') {
    return pass(outcome.mode === 'disabled' ? 'disabled' : 'silent', `getCheckpoint is silent (${outcome.mode})`, { config: loaded, outcome });
  }

  const turnKey = event.turnKey(outcome.timeline);
  const loopGuard: LoopGuardDecision | undefined =
    state === undefined
      ? undefined
      : decideLoopGuard({
          state: state.state,
          turnId: turnKey,
          stopHookActive: false,
          checkpointsDelivered: outcome.timeline?.checkpointsDelivered,
          turnStartedAt: outcome.timeline?.startedAt,
          now: event.now(),
          config: config.loopGuard,
        });
  return done({
    kind: 'block',
    message: outcome.message,
    mode: outcome.mode,
    why: `${outcome.mode}: ${outcome.result?.requiredActions.length ?? 0} action(s), ${outcome.result?.observations.length ?? 0} observation(s)`,
    outcome,
    config: loaded,
    transcriptPath: transcript?.path,
    turnKey,
    loopGuard,
    notices: [...notices],
    timings,
  });
}

/** The session state as read without the lock; `delivered` only when it holds a usable record. */
async function readState(
  event: TurnEndEvent,
  sessionId: string,
  log: TurnEndLog,
): Promise<{ readonly state: SessionState; readonly delivered: readonly string[] | undefined }> {
  const { state, diagnostics } = await readSessionState({ stateDir: event.stateDir, agent: event.agent, sessionId });
  for (const note of diagnostics) log.debug(`state: ${note}`);
  // An empty state is indistinguishable from a lost one: without a record, the reader recognises our
  // messages by their whole composed structure (never by the prefix alone).
  const usable = diagnostics.length === 0 && state.delivered !== undefined && state.delivered.length > 0;
  return { state, delivered: usable ? state.delivered : undefined };
}

/** The transcript to read, given or located, with its reader; undefined when there is none to read. */
async function findTranscript(
  event: TurnEndEvent,
  log: TurnEndLog,
  notices: TurnEndNotice[],
): Promise<{ readonly reader: TranscriptReader; readonly path: string } | undefined> {
  if (event.transcript.kind === 'none') return undefined;
  try {
    const reader = await event.reader();
    const located = event.transcript.kind === 'path' ? event.transcript.path : await reader.locateTranscript(event.transcript.request);
    const path = located === undefined ? undefined : await readableTranscriptPath(located, log);
    if (located !== undefined && path === undefined) notices.push(transcriptUnreadableNotice(`${located} is not a regular file`, event.commands));
    return path === undefined ? undefined : { reader, path };
  } catch (error) {
    log.warn(`transcript: the ${event.agent} reader is unavailable (${describeError(error)}); file-based instructions only`);
    notices.push(transcriptUnreadableNotice(`the ${event.agent} reader is unavailable: ${describeError(error)}`, event.commands));
    return undefined;
  }
}

/** Transcript ‖ git, heuristics, message and extensions, with the loaded config. */
async function compute(
  event: TurnEndEvent,
  loaded: LoadedConfig,
  transcript: { readonly reader: TranscriptReader; readonly path: string } | undefined,
  deliveredDigests: readonly string[] | undefined,
  extensions: readonly TurnEndExtension[],
): Promise<CheckpointOutcome> {
  const budget = Math.max(0, event.deadlineAt - Date.now());
  return getCheckpoint({
    agent: event.agent,
    cwd: event.cwd,
    ...(transcript === undefined ? {} : { transcript: { ...transcript, hint: event.hint, ...(deliveredDigests ? { deliveredDigests } : {}) } }),
    ...(event.sessionId === undefined ? {} : { sessionId: event.sessionId }),
    config: loaded.config,
    env: event.env,
    now: event.now(),
    signal: AbortSignal.timeout(budget),
    // The same budget as a time: transcript parsing is synchronous, and no timer fires during it.
    deadlineAt: Date.now() + budget,
    extensions,
    ...(event.commands === undefined ? {} : { commands: event.commands }),
  });
}

/** The extensions' and the route's bookkeeping of a granted block, composed in that order. */
function grantedBookkeeping(
  extensions: ((state: SessionState, now: Date) => SessionState) | undefined,
  route: TurnEndClaimOptions['onGranted'],
): Pick<ClaimCheckpointRequest, 'onGranted'> {
  if (extensions === undefined && route === undefined) return {};
  return { onGranted: (state, now, turnId) => {
    const afterExtensions = extensions === undefined ? state : extensions(state, now);
    return route === undefined ? afterExtensions : route(afterExtensions, now, turnId);
  } };
}

/** The locked claim of a block (see `ClaimableTurnEndBlock.claim`). */
async function claimBlock(event: TurnEndEvent, block: TurnEndBlock, options: TurnEndClaimOptions = {}): Promise<ClaimCheckpointResult> {
  if (event.sessionId === undefined) {
    return { claim: { verdict: 'pass', reason: 'state-unavailable', detail: 'no session id: the block cannot be recorded' }, diagnostics: [] };
  }
  return claimCheckpoint({
    stateDir: event.stateDir,
    agent: event.agent,
    sessionId: event.sessionId,
    turnId: block.turnKey,
    stopHookActive: false,
    checkpointsDelivered: block.outcome.timeline?.checkpointsDelivered,
    turnStartedAt: block.outcome.timeline?.startedAt,
    config: block.config.config.loopGuard,
    now: event.now(),
    ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }),
    // The extensions' bookkeeping of a granted block (the context line becomes the announced level),
    // then the route's (the hook arms its commit gate).
    ...grantedBookkeeping(block.outcome.onClaimGranted, options.onGranted),
    // Recorded with the block: the answer to this message is then recognised by its digest.
    messageDigest: deliveredMessageDigest(block.message),
    // What the block asked for, so the next stop can tell what became of it (block outcomes).
    ...(block.turnKey === undefined ? {} : { block: pendingBlockOf(block.outcome, block.config.config, block.turnKey, findProjectRoot(event.cwd), event.now()) }),
  });
}

/**
 * The transcript path, unless it names something other than a regular file. A FIFO would block the
 * (synchronous) tail read forever and a device could be endless: such paths are dropped, and the
 * checkpoint falls back to file-based instructions. A missing file is kept so the reader can say so.
 */
async function readableTranscriptPath(path: string, log: TurnEndLog): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (info.isFile()) return path;
    log.debug(`transcript ${path} is not a regular file; ignoring it`);
    return undefined;
  } catch {
    return path;
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
