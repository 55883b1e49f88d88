import { parseArgs } from 'node:util';
import { latestHandoff, renderResumePrompt } from '@agent-checkpoint/context-checkpoint';
import { findProjectRoot, loadConfig } from '@agent-checkpoint/core';
import { STDERR_PREFIX } from '../debug-log.ts';
import { chooseCommandCwd, currentDirectory } from '../run-cwd.ts';
import { contextCheckpointConfigOf, contextCheckpointSections } from '@agent-checkpoint/context-checkpoint/load';

/** Default age limit of the handoff a loop runner resumes from. */
const DEFAULT_MAX_AGE_HOURS = 24;

/**
 * `agent-checkpoint-hook resume-prompt [--cwd DIR] [--max-age-hours N]`: print the
 * `## CONTEXT CHECKPOINT RESUME` section (seed 004, Ralph loop) for the newest handoff of the
 * repository, for a loop runner to put into the next iteration's PROMPT.md. Prints nothing when there
 * is no handoff younger than the limit. Read-only (it does not mark the handoff as used: a runner may
 * render the prompt more than once). Like the hooks, it always exits 0 with either the section or
 * nothing on stdout; notes go to stderr.
 */
export async function runResumePrompt(args: readonly string[], write: (text: string) => Promise<void>): Promise<number> {
  let maxAgeHours = DEFAULT_MAX_AGE_HOURS;
  try {
    const { values } = parseArgs({
      args: [...args],
      options: { cwd: { type: 'string' }, 'max-age-hours': { type: 'string' } },
      allowPositionals: false,
      strict: true,
    });
    // A removed worktree: one line, not a raw ENOENT from process.cwd().
    const where = chooseCommandCwd(values.cwd, currentDirectory());
    if (where.kind === 'none') {
      process.stderr.write(`${STDERR_PREFIX} resume-prompt: ${where.detail}\n`);
      return 0;
    }
    const cwd = where.cwd;
    const hours = values['max-age-hours'];
    if (hours !== undefined) {
      const n = Number(hours);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`--max-age-hours needs a positive number, got ${JSON.stringify(hours)}`);
      maxAgeHours = n;
    }
    const { config, diagnostics } = await loadConfig({ cwd, env: process.env, sections: contextCheckpointSections });
    for (const note of diagnostics) process.stderr.write(`${STDERR_PREFIX} config: ${note}\n`);
    const { handoff } = contextCheckpointConfigOf(config);
    const latest = await latestHandoff(findProjectRoot(cwd), { dir: handoff.dir, now: new Date(), maxAgeMs: maxAgeHours * 3_600_000 });
    if (latest === undefined) {
      process.stderr.write(`${STDERR_PREFIX} no handoff younger than ${maxAgeHours} h in ${handoff.dir}\n`);
      return 0;
    }
    await write(renderResumePrompt(latest));
  } catch (error) {
    process.stderr.write(`${STDERR_PREFIX} resume-prompt: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  return 0;
}
