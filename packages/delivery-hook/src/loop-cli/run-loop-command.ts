import { join } from 'node:path';
import {
  clearAutonomousFlag,
  estimateLoopNextItem,
  MAX_PLAN_FILE_BYTES,
  FALLBACK_WINDOW_TOKENS,
  LOOP_STATE_FILE,
  type LoopNextItem,
  type LoopState,
  nextLoopIteration,
  readLoopState,
  shardDirFor,
  startLoop,
  syncShardsToTracker,
  writeAutonomousFlag,
} from '@agent-checkpoint/context-checkpoint';
import { trackerSettingsOf } from '@agent-checkpoint/context-checkpoint/load';
import { errorMessage, findProjectRoot, forTerminal, readRegularFileSync, resolveStateDir } from '@agent-checkpoint/core';
import { openCommandProject } from '../context-cli/context-cli-support.ts';
import { STDERR_PREFIX } from '../debug-log.ts';
import { defaultHookProgram } from '../install/hook-command.ts';
import { terminalToolOf } from '../route-commands.ts';
import { chooseCommandCwd, currentDirectory } from '../run-cwd.ts';
import type { LoopOperation, LoopOptions } from './loop-options.ts';

/**
 * Exit codes of `agent-checkpoint-hook loop`. `resume` is the end-this-iteration signal a runner
 * acts on: the iteration that just ended wrote a handoff, so the next prompt starts with
 * `resume-prompt` (which marks it consumed).
 */
export const LOOP_EXIT = {
  ok: 0,
  /** The loop state is unreadable (invalid, a symlink…) or cannot be written. */
  failed: 1,
  usage: 2,
  /** `status`: no loop state in this project. */
  notFound: 3,
  /** `next`: the previous iteration ended with a handoff that no iteration has resumed yet. */
  resume: 10,
} as const;

/** `agent-checkpoint-hook loop <start|next|status|end>` for loop-runner scripts (docs/context-checkpoints.md, "Loop runners"). */
export async function runLoopCommand(operation: LoopOperation, values: LoopOptions, write: (text: string) => Promise<void>): Promise<number> {
  const where = chooseCommandCwd(values.cwd, currentDirectory());
  if (where.kind === 'none') {
    process.stderr.write(`${STDERR_PREFIX} loop: ${where.detail}\n`);
    return LOOP_EXIT.failed;
  }
  const root = findProjectRoot(where.cwd);
  const now = new Date();
  try {
    switch (operation) {
      case 'start': {
        const state = await startLoop(root, now);
        autonomous(root, now, true);
        await write(values.json === true ? `${JSON.stringify(state)}\n` : `loop started: ${LOOP_STATE_FILE}\n`);
        return LOOP_EXIT.ok;
      }
      case 'end': {
        // Autonomous mode off; the loop state stays for `loop status` and the history.
        const stateDir = resolveStateDir({ env: process.env });
        const cleared = await clearAutonomousFlag({ stateDir, projectRoot: root });
        await write(values.json === true ? `${JSON.stringify({ ended: true, autonomous_cleared: cleared })}\n` : `loop ended${cleared ? '; autonomous mode off' : ''}\n`);
        return LOOP_EXIT.ok;
      }
      case 'next': {
        const { item, stateDir } = await nextItemEstimate(values.cwd, root);
        const next = await nextLoopIteration(root, now, item, stateDir);
        if ('error' in next) {
          process.stderr.write(`${STDERR_PREFIX} loop: ${next.error}\n`);
          return LOOP_EXIT.failed;
        }
        autonomous(root, now, false);
        await syncShardProgress(values.cwd, root);
        for (const note of next.notes) process.stderr.write(`${STDERR_PREFIX} loop: ${forTerminal(note)}\n`);
        const cc = next.state.context_checkpoint;
        if (values.json === true) await write(`${JSON.stringify({ iteration: next.state.iteration, resume: next.resume, signalled: next.signalled, handoff_file: cc.handoff_file ?? null, ...(item !== undefined ? { next_item: item } : {}) })}\n`);
        else await write(`iteration ${next.state.iteration}${next.resume ? `: resume from ${cc.handoff_file ?? ''}` : ''}\n${item !== undefined ? `${renderNextItem(item)}\n` : ''}`);
        return next.resume ? LOOP_EXIT.resume : LOOP_EXIT.ok;
      }
      case 'status': {
        const read = await readLoopState(root);
        if (read.kind === 'none') {
          process.stderr.write(`${STDERR_PREFIX} loop: no loop here (${LOOP_STATE_FILE} is missing; \`${terminalToolOf(defaultHookProgram().bundle, process.env)} loop start\` creates it)\n`);
          return LOOP_EXIT.notFound;
        }
        if (read.kind === 'invalid') {
          process.stderr.write(`${STDERR_PREFIX} loop: ${read.detail}\n`);
          return LOOP_EXIT.failed;
        }
        await write(values.json === true ? `${JSON.stringify(read.state)}\n` : renderLoopStatus(read.state));
        return LOOP_EXIT.ok;
      }
    }
  } catch (error) {
    process.stderr.write(`${STDERR_PREFIX} loop ${operation}: ${errorMessage(error)}\n`);
    return LOOP_EXIT.failed;
  }
}

/**
 * Seed 003's autonomous mode: `loop start` switches it on, every `loop next` refreshes it (a flag in the
 * user's state directory, stale 6 hours after the last refresh), `loop end` clears it. A failure is
 * one stderr line: the loop itself goes on without it.
 */
function autonomous(root: string, now: Date, restart: boolean): void {
  try {
    writeAutonomousFlag({ stateDir: resolveStateDir({ env: process.env }), projectRoot: root, now, restart });
  } catch (error) {
    process.stderr.write(`${STDERR_PREFIX} loop: autonomous mode not recorded (${errorMessage(error)})\n`);
  }
}

/**
 * SHD-004 as shards finish: with the tracker on and the plan (`handoff.planFile`) sharded with
 * sub-issues (`shard`), each `loop next` moves the finished shards' sub-issues to done and posts the
 * parent's progress when it changed. Creates nothing. Problems are stderr lines; the loop goes on.
 */
async function syncShardProgress(cwdOption: string | undefined, root: string): Promise<void> {
  const project = await openCommandProject(cwdOption);
  if (typeof project === 'string') return;
  const settings = trackerSettingsOf(project.config);
  const planFile = project.context.handoff.planFile;
  if (!settings.enabled || planFile === undefined) return;
  let planText: string | undefined;
  try {
    planText = readRegularFileSync(join(root, planFile), MAX_PLAN_FILE_BYTES)?.text;
  } catch {
    return;
  }
  if (planText === undefined) return;
  const outcome = await syncShardsToTracker({
    settings,
    env: process.env,
    stateDir: project.stateDir,
    projectRoot: root,
    planPath: planFile,
    planText,
    dir: shardDirFor(planFile),
    now: new Date(),
    signal: AbortSignal.timeout(Math.max(10_000, settings.timeoutMs * 4)),
  });
  // No parent or no key: the loop did not ask for the tracker here; say nothing.
  if (outcome.kind === 'synced') for (const note of outcome.result.diagnostics) process.stderr.write(`${STDERR_PREFIX} loop: ${forTerminal(note, { keepLines: false })}\n`);
}

/**
 * RLP-006: the plan's next item with its own estimate (and the state directory, where `loop next` records
 * an ended iteration's resume outcome) (the estimator's one model), for the iteration
 * `loop next` starts: a fresh session, so the whole window. Undefined without `handoff.planFile` or an
 * open item; problems are one stderr line each, never a failure of `loop next`.
 */
async function nextItemEstimate(cwdOption: string | undefined, root: string): Promise<{ readonly item?: LoopNextItem; readonly stateDir?: string }> {
  const project = await openCommandProject(cwdOption);
  if (typeof project === 'string') {
    process.stderr.write(`${STDERR_PREFIX} loop: next item not estimated (${project})\n`);
    return {};
  }
  const { context, handoff } = project.context;
  const found = await estimateLoopNextItem({
    projectRoot: root,
    stateDir: project.stateDir,
    ...(handoff.planFile !== undefined ? { planFile: handoff.planFile } : {}),
    window: context.windowTokens ?? FALLBACK_WINDOW_TOKENS,
  });
  for (const note of found.diagnostics) process.stderr.write(`${STDERR_PREFIX} loop: ${note}\n`);
  return { ...(found.item !== undefined ? { item: found.item } : {}), stateDir: project.stateDir };
}

/** `Next item: <text> (PLAN.md:12, ~6 % of the window, small)`; the text is from the working tree: escaped. */
export function renderNextItem(item: LoopNextItem): string {
  const advice = item.band === 'large' ? '; over 60 %: split it before starting' : '';
  return `Next item: ${forTerminal(item.text)} (${forTerminal(item.file)}:${item.line}, ~${item.estimated_percent} % of the window, ~${item.estimated_tokens} tokens, ${item.band}${advice})`;
}

/** The human-readable `loop status`: one line per fact, then the context history (RLP-005, RLP-007). */
export function renderLoopStatus(state: LoopState): string {
  const cc = state.context_checkpoint;
  const lines = [`Loop iteration: ${state.iteration} (started ${state.started_at})`];
  if (cc.handoff_file === undefined) lines.push('Checkpoint: none in this loop');
  else {
    const what = `${cc.level ?? '?'} at ${cc.percent_at_checkpoint ?? '?'}% in iteration ${cc.handoff_iteration ?? '?'}, ${cc.handoff_file}`;
    lines.push(`Checkpoint: ${what} (${cc.handoff_consumed ? 'resumed' : 'waiting to be resumed'})`);
    // From the handoff (validated on read, escaped here: the model wrote the item).
    const files = (cc.files_in_progress ?? []).map((f) => `${f.path}${f.lines !== undefined ? ` (lines ${f.lines})` : ''}`);
    if (files.length > 0) lines.push(`Files in progress: ${forTerminal(files.join(', '))}`);
    if (cc.current_todo_item !== undefined) lines.push(`Current item: ${forTerminal(cc.current_todo_item)}${cc.progress !== undefined ? ` (${forTerminal(cc.progress)})` : ''}`);
  }
  if (state.next_item !== undefined) lines.push(renderNextItem(state.next_item));
  if (state.context_history.length === 0) lines.push('Context history: none yet');
  else {
    lines.push('Context history (peak per iteration):');
    // Shown as data: the numbers were validated on read, so no text from the file reaches the terminal unescaped.
    for (const entry of state.context_history) lines.push(`  ${String(entry.iteration).padStart(3)}  ${String(entry.peak_percent).padStart(3)}%${entry.checkpoint ? '  handoff' : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
