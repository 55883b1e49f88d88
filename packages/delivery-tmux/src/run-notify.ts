import {
  assertNever,
  checkTurnEndEarly,
  findProjectRoot,
  isTruthyEnv,
  resolveStateDir,
} from '@agent-checkpoint/core/hot-path';
import type { TranscriptReader, TurnEndDecision, TurnEndEvent, TurnEndPass } from '@agent-checkpoint/core';
import { stat } from 'node:fs/promises';
import { chooseTransport, type Transport } from './choose-transport.ts';
import { queueMessage } from './codex-queue-client.ts';
import { deliverToPane } from './deliver-to-pane.ts';
import { findCodexPane, type FindPaneResult } from './find-codex-pane.ts';
import { createNotifyLogger, type NotifyLogger } from './notify-logger.ts';
import { parseNotifyArgv, type NotifyOptions } from './parse-notify-argv.ts';
import { paneRunsThread } from './pane-runs-thread.ts';
import { spawnQueueConfirmer, type QueueJob } from './queue-confirmer.ts';
import { readNotifyPayload } from './read-notify-payload.ts';
import { spawnChainedNotify, type ChainResult } from './spawn-chained-notify.ts';
import { capturePane, classifyScreen } from './verify-idle-prompt.ts';
import { contextCheckpointSections } from '@agent-checkpoint/context-checkpoint/load';

type Env = Readonly<Record<string, string | undefined>>;

/** The core functions a notify run uses; the CLI passes the real ones. */
export interface NotifyDeps {
  readonly env: Env;
  /** Core's turn-end pipeline (`runTurnEnd`); the CLI loads it lazily. */
  readonly runTurnEnd: (event: TurnEndEvent) => Promise<TurnEndDecision>;
  readonly createReader: () => TranscriptReader | Promise<TranscriptReader>;
  readonly stdout?: (text: string) => void;
  readonly stderr?: (line: string) => void;
  /** Home directory for locating the rollout (tests); defaults to the reader's own default. */
  readonly homeDir?: string;
  /** `/proc` replacement (tests). */
  readonly procRoot?: string;
  /** Time budget of the checkpoint (git + transcript). Default 10 s. */
  readonly checkpointBudgetMs?: number;
  /**
   * Starts the confirmer of a queued item. Default: a detached `<node> <this bin> __confirm-queue`
   * ({@link spawnQueueConfirmer}); tests run it in-process.
   */
  readonly startConfirmer?: (job: QueueJob) => { ok: true } | { ok: false; reason: string };
}

/** The client name Codex's interactive TUI puts in the notify payload (`codex exec` says `codex_exec`). */
export const TUI_CLIENT = 'codex-tui';

/** Default deadline of the queued item's confirmation. */
export const DEFAULT_QUEUE_CONFIRM_MS = 20_000;

/** How one notify run ended. Every kind exits 0. */
export type NotifyOutcome =
  | { readonly kind: 'help' }
  /** The payload was missing or malformed. */
  | { readonly kind: 'invalid'; readonly reason: string }
  /** Not a real turn of a main thread (other event type, title thread). */
  | { readonly kind: 'ignored'; readonly reason: string }
  /** Nothing to deliver here: switched off, not in a Codex pane, own checkpoint turn, silent, loop guard. */
  | { readonly kind: 'skipped'; readonly reason: string }
  /** A message was due but typing was refused (pane busy, draft in the composer…). Nothing typed. */
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'delivered'; readonly text: string; readonly enterPresses: 1 | 2 }
  /**
   * Handed to `codex queue` (exit 0 = queued, not yet delivered); a detached confirmer checks the
   * rollout for it and withdraws it after its deadline.
   */
  | { readonly kind: 'queued'; readonly text: string; readonly queuedSubmissionId: string }
  /** Typing started and could not be confirmed. */
  | { readonly kind: 'failed'; readonly reason: string };

export interface NotifyRunResult {
  readonly outcome: NotifyOutcome;
  readonly chain: ChainResult;
}

export const USAGE = `agent-checkpoint-tmux — Codex notify program: delivers the agent-checkpoint message to the Codex TUI session
(by \`codex queue\` when Codex has it, else by typing into the tmux pane proven to run that session).

Usage (as Codex's notify command; Codex appends the JSON payload):
  agent-checkpoint-tmux [--transport=auto|queue|tmux] [--codex-bin=PATH] [--queue-confirm-ms=N]
                        [--enter-delay-ms=N] [--idle-wait-ms=N] [--confirm-timeout-ms=N] [-- <previous notify program> [args…]] <payload>

~/.codex/config.toml:
  notify = ["node", "/abs/path/agent-checkpoint-tmux.mjs"]
  notify = ["node", "/abs/path/agent-checkpoint-tmux.mjs", "--", "notify-send", "Codex"]   # chaining

Environment: AGENT_CHECKPOINT_DISABLE=1 (off), AGENT_CHECKPOINT_DEBUG=1 (log to <state dir>/debug.log).
Always exits 0.

Set-up (for people; exit 0 ok, 1 failure, 2 usage):
  agent-checkpoint-tmux install [--dry-run] [--print]   set notify in $CODEX_HOME/config.toml, chaining yours
  agent-checkpoint-tmux uninstall [--dry-run]           restore it
  agent-checkpoint-tmux doctor [--json]                 check notify, tmux and Codex, with a fix per finding`;

/**
 * One run of the Codex `notify` program. Never throws: every failure becomes an outcome plus at most
 * one line on stderr.
 *
 * Order (cheap refusals first, delivery last):
 * 1. chain the previous notify program, if any (detached, never waited for);
 * 2. parse the payload; ignore other events and the TUI's title-generation threads;
 * 3. off switches (env, global, project, per session: the pipeline's `checkTurnEndEarly`); skip clients
 *    other than the interactive TUI;
 * 4. choose the transport (`codex queue` when Codex has it, else tmux); for tmux, find the pane
 *    (`$TMUX`/`$TMUX_PANE`, fail closed);
 * 5. locate the rollout (tmux: the pane's Codex must have it open);
 * 6. core's turn-end pipeline (`runTurnEnd`) with the Codex reader and hint `{turnId, prompt}`: config,
 *    our own checkpoint turn (this route has no `stop_hook_active`: the last input message, then the
 *    rollout's last user message, is one we delivered — its digest is recorded in the session
 *    state, or it has our whole composed structure), the loop guard, the checkpoint;
 * 7. skip on a pass, or when the loop guard's unlocked verdict already passes;
 * 8. queue: claim the loop-guard slot, `codex queue`, start the detached confirmer; tmux: wait for
 *    an idle, empty composer, claim the slot, paste and submit.
 */
export async function runNotify(argv: readonly string[], deps: NotifyDeps): Promise<NotifyRunResult> {
  const parsed = parseNotifyArgv(argv);
  const env = deps.env;
  if (parsed.help || parsed.version) {
    (deps.stdout ?? ((text) => void process.stdout.write(text)))(`${parsed.version ? '0.1.0' : USAGE}\n`);
    return { outcome: { kind: 'help' }, chain: { status: 'none' } };
  }
  let stateDir: string | undefined;
  try {
    stateDir = resolveStateDir({ env });
  } catch {
    stateDir = undefined;
  }
  const log = createNotifyLogger({
    debug: isTruthyEnv(env['AGENT_CHECKPOINT_DEBUG']),
    stateDir,
    ...(deps.stderr ? { stderr: deps.stderr } : {}),
  });
  for (const note of parsed.diagnostics) log.warn(note);

  const chain =
    parsed.payload === undefined
      ? ({ status: 'none' } as const)
      : spawnChainedNotify(parsed.chain, parsed.payload, { env: { ...env }, onError: (m) => log.warn(m) });
  if (chain.status === 'refused') log.warn(chain.reason);

  let outcome: NotifyOutcome;
  try {
    outcome = await decideAndDeliver(parsed.payload, parsed.options, stateDir, deps, log);
  } catch (error) {
    outcome = { kind: 'failed', reason: `internal error: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (chain.status === 'spawned') await chain.started;
  switch (outcome.kind) {
    case 'invalid':
    case 'failed':
      log.warn(outcome.reason);
      break;
    case 'delivered':
      log.debug('delivered', { transport: 'tmux', enterPresses: outcome.enterPresses, chars: outcome.text.length });
      break;
    case 'queued':
      log.debug('queued', { transport: 'queue', queuedSubmissionId: outcome.queuedSubmissionId, chars: outcome.text.length });
      break;
    default:
      log.debug(`${outcome.kind}: ${'reason' in outcome ? outcome.reason : ''}`);
  }
  return { outcome, chain };
}

async function decideAndDeliver(
  rawPayload: string | undefined,
  options: NotifyOptions,
  stateDir: string | undefined,
  deps: NotifyDeps,
  log: NotifyLogger,
): Promise<NotifyOutcome> {
  const env = deps.env;
  const payload = readNotifyPayload(rawPayload);
  if (payload.kind !== 'turn-complete') return payload;
  const event = payload.event;
  log.debug('turn complete', { threadId: event.threadId, turnId: event.turnId, cwd: event.cwd });

  if (stateDir === undefined) return { kind: 'skipped', reason: 'no state directory (cannot apply the loop guard)' };
  const early = await checkTurnEndEarly({ stateDir, sessionId: event.threadId, projectRoot: findProjectRoot(event.cwd), env });
  for (const note of early.diagnostics) log.debug(note);
  if (early.kind === 'pass') {
    const off = early.offSwitch;
    return { kind: 'skipped', reason: off?.off === true ? `switched off (${off.source}: ${off.detail})` : early.detail };
  }
  // `codex exec` dequeues a queued message and aborts it on exit (lost), and runs in no pane: the
  // Stop hook is its route. Only the interactive TUI (or a build that names no client) goes on.
  if (event.client !== undefined && event.client !== TUI_CLIENT) {
    return { kind: 'skipped', reason: `client ${JSON.stringify(event.client.slice(0, 32))} is not the interactive TUI (use the Stop hook)` };
  }

  const transport = await chooseTransport({
    env,
    stateDir,
    ...(options.transport !== undefined ? { choice: options.transport } : {}),
    ...(options.codexBin !== undefined ? { codexBin: options.codexBin } : {}),
  });
  log.debug(`transport: ${transport.kind}`, { why: transport.why });
  if (transport.kind === 'none') return { kind: 'skipped', reason: `no transport: ${transport.why}` };
  let found: FindPaneResult | undefined;
  if (transport.kind === 'tmux') {
    found = await findCodexPane(env, deps.procRoot !== undefined ? { procRoot: deps.procRoot } : {});
    if (!found.ok) return { kind: 'skipped', reason: found.reason };
  }

  // First idle sample while git and the transcript are read (started once the pipeline's cheap
  // passes are behind and the pane is proven); the confirming one comes right before typing (two
  // idle samples at least 250 ms apart, as always).
  const pane = found?.ok === true ? found.pane : undefined;
  let earlySample: Promise<{ at: number; idle: boolean }> = Promise.resolve({ at: 0, idle: false });
  const admitTranscript = async (transcriptPath: string | undefined): Promise<string | undefined> => {
    if (transcriptPath === undefined) return `no rollout found for thread ${event.threadId}`;
    if (pane !== undefined) {
      // tmux fallback: the pane must be proven to run this very thread, or nothing is typed.
      const proof = await paneRunsThread(pane, transcriptPath, deps.procRoot !== undefined ? { procRoot: deps.procRoot } : {});
      if (!proof.ok) return `not typing: ${proof.reason}`;
      earlySample = capturePane(pane).then((screen) => ({ at: Date.now(), idle: screen !== undefined && classifyScreen(screen) === 'idle' }));
    }
    return undefined;
  };
  const lastInput = event.inputMessages.at(-1);
  const budgetMs = deps.checkpointBudgetMs ?? 10_000;
  const decision = await deps.runTurnEnd({
    agent: 'codex',
    cwd: event.cwd,
    sessionId: event.threadId,
    transcript: { kind: 'locate', request: { sessionId: event.threadId, env, ...(deps.homeDir !== undefined ? { homeDir: deps.homeDir } : {}) } },
    reader: deps.createReader,
    admitTranscript,
    hint: {
      turnId: event.turnId,
      ...(lastInput !== undefined ? { prompt: lastInput } : {}),
      ...(event.lastAssistantMessage !== undefined ? { lastAssistantMessage: event.lastAssistantMessage } : {}),
    },
    // Codex's turn_id is unique per turn, and it is the loop guard's key on this route.
    turnIdIsFinal: true,
    turnKey: () => event.turnId,
    offSwitch: early.offSwitch,
    // No stop_hook_active here: the route recognises the turns that answer its own checkpoints.
    recogniseOwnCheckpoints: true,
    // A FIFO or device as a config file is ignored like any broken file (defaults decide), as always here.
    unusableConfigPath: 'defaults',
    deadlineAt: Date.now() + budgetMs,
    env,
    now: () => new Date(),
    stateDir,
    // The features this config asks for (test run, context step), loaded only when configured.
    extensions: async (config) => (await import('@agent-checkpoint/context-checkpoint/load')).loadTurnEndExtensions(config),
    // Static and tiny (the keys; the sections themselves load only when a file sets one).
    configSections: contextCheckpointSections,
    log: { warn: (line) => log.warn(line), debug: (line) => log.debug(line) },
  });
  if (decision.kind === 'pass') return { kind: 'skipped', reason: skipReasonOf(decision) };
  // The loop guard's full verdict (turn length, checkpoints seen in the transcript) before waiting
  // on the pane; the locked claim right before typing decides for real.
  const guard = decision.loopGuard;
  if (guard?.verdict === 'pass') return { kind: 'skipped', reason: `loop guard: ${guard.reason} (${guard.detail})` };
  const transcriptPath = decision.transcriptPath;
  if (transcriptPath === undefined) return { kind: 'skipped', reason: `no rollout found for thread ${event.threadId}` };
  const idleSample = await earlySample;

  const claim = async (): Promise<string | undefined> => {
    const claimed = await decision.claim();
    for (const note of claimed.diagnostics) log.debug(`state: ${note}`);
    return claimed.claim.verdict === 'allow' ? undefined : `loop guard: ${claimed.claim.reason} (${claimed.claim.detail})`;
  };

  if (transport.kind === 'queue') {
    return deliverByQueue(transport, { event, text: decision.message, transcriptPath, options, deps, claim });
  }
  if (pane === undefined) return { kind: 'skipped', reason: 'no pane' };
  const delivery = await deliverToPane(pane, decision.message, {
    ...(options.enterDelayMs !== undefined ? { enterDelayMs: options.enterDelayMs } : {}),
    ...(options.idleWaitMs !== undefined ? { idleWaitMs: options.idleWaitMs } : {}),
    ...(options.confirmTimeoutMs !== undefined ? { confirmTimeoutMs: options.confirmTimeoutMs } : {}),
    ...(idleSample.idle ? { idleSeenAt: idleSample.at } : {}),
    beforePaste: claim,
  });
  switch (delivery.status) {
    case 'delivered':
      return { kind: 'delivered', text: delivery.text, enterPresses: delivery.enterPresses };
    case 'refused':
      return { kind: 'refused', reason: delivery.reason };
    case 'failed':
      return { kind: 'failed', reason: delivery.reason };
    default:
      return assertNever(delivery);
  }
}

/**
 * Queue transport: claim the loop-guard slot, `codex queue` the exact checkpoint text, and start the
 * detached confirmer (the notify program itself returns right away; Codex does not wait on it).
 */
async function deliverByQueue(
  transport: Extract<Transport, { kind: 'queue' }>,
  input: {
    readonly event: { readonly threadId: string; readonly turnId: string; readonly cwd: string };
    readonly text: string;
    readonly transcriptPath: string;
    readonly options: NotifyOptions;
    readonly deps: NotifyDeps;
    readonly claim: () => Promise<string | undefined>;
  },
): Promise<NotifyOutcome> {
  const { event, text, deps } = input;
  if (text.trim() === '') return { kind: 'refused', reason: 'the message is empty' };
  const veto = await input.claim();
  if (veto !== undefined) return { kind: 'skipped', reason: veto };
  // The queued turn is appended after what the rollout holds now.
  const fromOffset = await stat(input.transcriptPath).then((info) => info.size, () => 0);
  const queuedAt = Date.now();
  const queued = await queueMessage(transport.codex, { threadId: event.threadId, text, env: deps.env, cwd: event.cwd });
  if (!queued.ok) return { kind: 'failed', reason: queued.reason };
  const job: QueueJob = {
    threadId: event.threadId,
    turnId: event.turnId,
    queuedSubmissionId: queued.queuedSubmissionId,
    rolloutPath: input.transcriptPath,
    fromOffset,
    text,
    deadlineMs: input.options.queueConfirmMs ?? DEFAULT_QUEUE_CONFIRM_MS,
    codex: { argv: [...transport.codex.argv], path: transport.codex.path, source: transport.codex.source },
    queuedAt,
  };
  const started = (deps.startConfirmer ?? ((j: QueueJob) => spawnQueueConfirmer(j, { command: selfCommand(), env: deps.env })))(job);
  if (!started.ok) return { kind: 'failed', reason: `queued ${queued.queuedSubmissionId} but ${started.reason}` };
  return { kind: 'queued', text, queuedSubmissionId: queued.queuedSubmissionId };
}

/** `<node> <this bin>`: how the notify program runs itself (the bundle path is argv[1]). */
function selfCommand(): string[] {
  const script = process.argv[1];
  return script === undefined ? [] : [process.execPath, script];
}

/** The skip reason of a pipeline pass, in this route's words. */
function skipReasonOf(decision: TurnEndPass): string {
  switch (decision.reason) {
    case 'switched-off':
      return `switched off (${decision.detail})`;
    case 'disabled':
      return 'disabled in the configuration';
    case 'own-checkpoint-unrecognisable':
      // The hook route has stop_hook_active; this route has only its own messages (recorded digest
      // or composed structure), which both start with the prefix.
      return 'messages.prefix is empty: the tmux route cannot recognise its own messages';
    case 'own-checkpoint-turn':
    case 'route-refused':
      return decision.detail;
    case 'loop-guard':
      return decision.loopGuard === undefined ? `loop guard: ${decision.detail}` : `loop guard: ${decision.loopGuard.reason} (${decision.loopGuard.detail})`;
    case 'silent':
      return `nothing to deliver (${decision.outcome?.mode ?? 'silent'})`;
    case 'config-unusable':
      return `configuration unusable: ${decision.detail}`;
  }
}
