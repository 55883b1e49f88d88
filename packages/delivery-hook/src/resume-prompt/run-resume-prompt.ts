import { fetchMemoryResumeExtras, latestOwnHandoff, memoryResumeSection, pendingLoopHandoff, recordLoopResume, renderResumePrompt } from '@agent-checkpoint/context-checkpoint';
import { findProjectRoot, forTerminal, loadConfig, resolveStateDir } from '@agent-checkpoint/core';
import { STDERR_PREFIX } from '../debug-log.ts';
import { chooseCommandCwd, currentDirectory } from '../run-cwd.ts';
import { contextCheckpointConfigOf, contextCheckpointSections, memorySettingsOf } from '@agent-checkpoint/context-checkpoint/load';

/** Default age limit of the handoff a loop runner resumes from. */
const DEFAULT_MAX_AGE_HOURS = 24;

/** The options of `resume-prompt`, as commander parses them (commands/hook-cli.ts declares them). */
export interface ResumePromptOptions {
  readonly cwd?: string;
  readonly maxAgeHours?: string;
  readonly peek?: boolean;
}

/**
 * `agent-checkpoint-hook resume-prompt [--cwd DIR] [--max-age-hours N]`: print the
 * `## CONTEXT CHECKPOINT RESUME` section (seed 004, Ralph loop) for the newest handoff of the
 * repository, for a loop runner to put into the next iteration's PROMPT.md. Prints nothing when there
 * is no handoff younger than the limit. Outside a loop it is read-only (a runner may render the prompt
 * more than once). Inside a loop (`loop start` / `loop next` made `.agent-checkpoint/loop-state.json`)
 * it marks the handoff consumed there, and prints nothing for a handoff already consumed, so the next
 * iteration does not resume it again (RLP-004); `--peek` renders without marking. Like the hooks, it
 * always exits 0 with either the section or nothing on stdout; notes go to stderr.
 */
export async function runResumePrompt(values: ResumePromptOptions, write: (text: string) => Promise<void>): Promise<number> {
  let maxAgeHours = DEFAULT_MAX_AGE_HOURS;
  try {
    // A removed worktree: one line, not a raw ENOENT from process.cwd().
    const where = chooseCommandCwd(values.cwd, currentDirectory());
    if (where.kind === 'none') {
      process.stderr.write(`${STDERR_PREFIX} resume-prompt: ${where.detail}\n`);
      return 0;
    }
    const cwd = where.cwd;
    const hours = values.maxAgeHours;
    if (hours !== undefined) {
      const n = Number(hours);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`--max-age-hours needs a positive number, got ${JSON.stringify(hours)}`);
      maxAgeHours = n;
    }
    const { config, diagnostics } = await loadConfig({ cwd, env: process.env, sections: contextCheckpointSections });
    for (const note of diagnostics) process.stderr.write(`${STDERR_PREFIX} config: ${note}\n`);
    const { handoff } = contextCheckpointConfigOf(config);
    const root = findProjectRoot(cwd);
    // Only a handoff this installation wrote (recorded in the state directory) is resumed; a committed
    // or edited one is named on stderr, never printed into the prompt.
    const stateDir = resolveStateDir({ env: process.env });
    const own = await latestOwnHandoff(root, stateDir, { dir: handoff.dir, now: new Date(), maxAgeMs: maxAgeHours * 3_600_000 });
    if (own.notice !== undefined) process.stderr.write(`${STDERR_PREFIX} resume-prompt: ${forTerminal(own.notice, { keepLines: false })}\n`);
    const latest = own.handoff;
    if (latest === undefined) {
      process.stderr.write(`${STDERR_PREFIX} no handoff of ours younger than ${maxAgeHours} h in ${forTerminal(handoff.dir, { keepLines: false })}\n`);
      return 0;
    }
    const loop = await pendingLoopHandoff(root);
    if (loop.kind === 'invalid') process.stderr.write(`${STDERR_PREFIX} resume-prompt: ${loop.detail}; the handoff is not marked consumed\n`);
    if (loop.kind === 'loop') {
      const cc = loop.state.context_checkpoint;
      if (cc.handoff_consumed && cc.handoff_file === latest.relativePath) {
        process.stderr.write(`${STDERR_PREFIX} resume-prompt: ${latest.relativePath} was already resumed in this loop\n`);
        return 0;
      }
    }
    // claude-mem (memory.enabled): the newest checkpoint observation and the recent context (MEM-004..006), then the queries (MEM-003).
    const memory = memorySettingsOf(config);
    const notes: string[] = [];
    const extras = await fetchMemoryResumeExtras(memory, latest, { projectRoot: root, env: process.env }, notes);
    for (const note of notes) process.stderr.write(`${STDERR_PREFIX} resume-prompt: ${note}\n`);
    await write(renderResumePrompt(latest, memoryResumeSection(memory, latest, extras)));
    if (loop.kind === 'loop' && values.peek !== true) {
      // The newest handoff is the loop's (or one written outside its turn ends): either way this iteration starts with it, a resume counted in the metrics.
      for (const note of await recordLoopResume(root, loop.state, latest.relativePath, { stateDir, now: new Date() })) process.stderr.write(`${STDERR_PREFIX} resume-prompt: ${note}\n`);
    }
  } catch (error) {
    process.stderr.write(`${STDERR_PREFIX} resume-prompt: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  return 0;
}
