import { DEFAULT_ISSUE_PATTERN, readContextLevel, readStatuslineStatus, type ContextReading } from '@agent-checkpoint/context-checkpoint';
import { forTerminal, resolveStateDir, type TokenUsage } from '@agent-checkpoint/core';
import { runHookHarness } from '../hook-harness.ts';
import { readHookOptions } from '../hook-options.ts';
import { readStatuslineInput, type StatuslineInput } from './read-statusline-input.ts';
import { readTranscriptUsage } from './read-transcript-usage.ts';
import { chooseRunCwd, currentDirectory } from '../run-cwd.ts';
import { readBranchIssue } from './read-branch-issue.ts';
import { readCurrentPhase } from './read-current-phase.ts';
import { renderStatusline } from './render-statusline.ts';
const ISSUE_PATTERN = new RegExp(DEFAULT_ISSUE_PATTERN);

/** Longest wait for Claude's JSON on stdin. */
const STDIN_TIMEOUT_MS = 1000;
/** The line when nothing is known. */
const NOT_AVAILABLE = '[CTX: n/a] [CKPT: n/a]';

/**
 * `agent-checkpoint-hook statusline`: Claude Code's `statusLine` command. Reads the status line JSON
 * on stdin and prints one line, e.g. `[CTX: ████████░░ 82% L2] [CKPT: handoff 14:05]`.
 *
 * Built for every refresh: no git, no lock, no transcript parse beyond the last usage record (and only
 * when Claude's JSON lacks `context_window`); the configuration (cached), the off switches and the
 * session's small state file come from the context package's `readStatuslineStatus`, behind the
 * context hooks' early check. Thresholds and `context.windowTokens` come from the configuration;
 * the levels are shown whether or not `context.enabled` is on (the status line is its own opt-in).
 * Always exits 0 and always prints a line (`[CTX: n/a]` when nothing is known), through the hooks'
 * process harness (hook-harness.ts), so it also has their deadline.
 */
export async function runStatusline(write: (text: string) => Promise<void>): Promise<never> {
  // One line on the user's terminal: whatever reached it (a model name, a future part) cannot steer it.
  const lineOf = (line: string): string => `${forTerminal(line, { keepLines: false })}\n`;
  const warn = (line: string): void => void process.stderr.write(`agent-checkpoint: ${forTerminal(line, { keepLines: false })}\n`);
  const { deadlineMs } = readHookOptions(process.env, []);
  // The hooks' process contract (deadline, stdin cap, exit 0), answering the `n/a` line when it cannot do better.
  return runHookHarness({ mode: 'statusline', deadlineMs, stdinTimeoutMs: STDIN_TIMEOUT_MS, stdinMaxBytes: 1024 * 1024, fallback: lineOf(NOT_AVAILABLE), warn, write }, async (text) => {
    try {
      return lineOf(await statuslineFor(readStatuslineInput(text), process.env, currentDirectory()));
    } catch (error) {
      warn(`statusline: ${error instanceof Error ? error.message : String(error)}`);
      return lineOf(NOT_AVAILABLE);
    }
  });
}

/** The status line for one input. Exported for tests. */
export async function statuslineFor(
  input: StatuslineInput,
  env: Readonly<Record<string, string | undefined>>,
  /** Fallback for an input without `cwd`; undefined when the process's directory is gone (a removed worktree). */
  processCwd: string | undefined,
): Promise<string> {
  const where = chooseRunCwd(input.cwd, processCwd);
  if (where.kind === 'none') throw new Error(where.detail);
  const cwd = where.cwd;
  // The status line is Claude Code's (its profile's `hasStatusLine`): the session state is Claude's.
  const status = await readStatuslineStatus({ agent: 'claude', cwd, stateDir: resolveStateDir({ env }), sessionId: input.sessionId, env });
  const { context } = status.settings.context;
  const reading = readingOf(input, context.windowTokens, context.thresholds);
  const issue = readBranchIssue(cwd, ISSUE_PATTERN);
  const phase = readCurrentPhase(status.settings.projectRoot);
  return renderStatusline(reading, status.checkpoint, {
    ...(issue !== undefined ? { issue } : {}),
    ...(phase !== undefined ? { phase } : {}),
    ...(status.recordedState !== undefined ? { recordedState: status.recordedState } : {}),
  });
}

function readingOf(
  input: StatuslineInput,
  windowTokens: number | undefined,
  thresholds: { readonly l1: number; readonly l2: number; readonly l3: number },
): ContextReading | undefined {
  let usage: TokenUsage | undefined;
  if (input.contextTokens !== undefined) {
    usage = { contextTokens: input.contextTokens, ...(input.contextWindow !== undefined ? { contextWindow: input.contextWindow } : {}), ...model(input) };
  } else if (input.usedPercentage !== undefined && input.contextWindow !== undefined) {
    usage = { contextTokens: Math.round((input.usedPercentage / 100) * input.contextWindow), contextWindow: input.contextWindow, ...model(input) };
  } else if (input.transcriptPath !== undefined) {
    const fromTranscript = readTranscriptUsage(input.transcriptPath);
    if (fromTranscript !== undefined) usage = { ...model(input), ...fromTranscript };
  }
  return readContextLevel(usage, { windowTokens, thresholds });
}

function model(input: StatuslineInput): { model?: string } {
  return input.model !== undefined ? { model: input.model } : {};
}
