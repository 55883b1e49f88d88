import { basename } from 'node:path';
import { errorMessage } from '@agent-checkpoint/core';
import type { LoadedHandoff } from '../handoff/latest-handoff.ts';
import type { CheckpointObservation } from '../memory-service/checkpoint-observation.ts';
import { renderMemoryResumeSection } from '../memory-service/memory-resume-prompt.ts';
import type { MemorySettings } from '../memory-service/memory-settings.ts';

/**
 * claude-mem's part of a handoff checkpoint and of a resume (seed 004, MEM-001..006), the memory
 * counterpart of `tracker-step.ts`:
 * - {@link saveMemoryAfterHandoff}: at an L2/L3 handoff on any route, one checkpoint observation
 *   (`saveCheckpoint`: title `Context Checkpoint L2 at 87% - ANV-123`, MEM-001/002), once per
 *   (session, level, handoff);
 * - {@link memoryResumeSection}: the "Memory Query (Run First)" section (MEM-003) for the SessionStart
 *   resume and the loop runner's resume prompt; {@link fetchMemoryResumeExtras} adds what the worker
 *   knows (the newest checkpoint observation's id for `timeline`, MEM-005/006; recent context, MEM-004).
 * The client is imported lazily (zod): a configuration without `memory.enabled` loads none of it and
 * sends nothing. Nothing here throws or blocks a hook: problems are diagnostics, each call is bounded
 * by `memory.timeoutMs` and the caller's abort signal.
 */

/** The claude-mem project of a repository: its root directory's name, as claude-mem's `getProjectName` derives it. */
export function claudeMemProject(projectRoot: string): string {
  return basename(projectRoot) || 'unknown-project';
}

/** Where the client runs: the environment (worker address) and the bound of its calls. */
export interface MemoryStepEnv {
  readonly projectRoot: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
}

/** Save the checkpoint observation of a handoff just written. Returns the observation id when saved. Never throws. */
export async function saveMemoryAfterHandoff(
  settings: MemorySettings,
  observation: CheckpointObservation & { readonly level: 'L2' | 'L3' },
  where: MemoryStepEnv & { readonly stateDir: string | undefined; readonly sessionId?: string; readonly now: Date },
  diagnostics: string[],
): Promise<number | undefined> {
  if (!settings.enabled) return undefined;
  try {
    if (observation.handoffPath !== undefined && where.stateDir !== undefined) {
      const { claimHandoffSync } = await import('./handoff-sync-record.ts');
      const key = { service: 'memory' as const, level: observation.level, handoffPath: observation.handoffPath, ...(where.sessionId !== undefined ? { sessionId: where.sessionId } : {}) };
      const claim = claimHandoffSync(where.stateDir, key, where.now);
      if (claim.kind === 'already') return undefined;
      if (claim.kind === 'unrecorded') diagnostics.push(`claude-mem: ${claim.note}`);
    }
    const { openClaudeMemClient } = await import('../memory-service/open-claude-mem-client.ts');
    const opened = await openClaudeMemClient({ env: where.env, timeoutMs: settings.timeoutMs, ...(where.signal ? { signal: where.signal } : {}) });
    if (!opened.ok) {
      diagnostics.push(`${opened.message}; checkpoint not saved in claude-mem`);
      return undefined;
    }
    const saved = await opened.client.saveCheckpoint(observation, claudeMemProject(where.projectRoot));
    if (saved.ok) return saved.value.id;
    diagnostics.push(`claude-mem: saving the checkpoint failed (${saved.failure.kind}): ${saved.failure.message}`);
  } catch (error) {
    diagnostics.push(`claude-mem: ${errorMessage(error)}; checkpoint not saved`);
  }
  return undefined;
}

/** The level and percentage a handoff's front matter records (`checkpoint_trigger`, `context_at_checkpoint`). */
export function handoffCheckpointOf(handoff: LoadedHandoff): { readonly level?: 'L1' | 'L2' | 'L3'; readonly percent?: number } {
  const trigger = handoff.frontMatter['checkpoint_trigger'];
  const at = handoff.frontMatter['context_at_checkpoint'];
  const level = typeof trigger === 'string' ? /^(L[123])\b/.exec(trigger)?.[1] : undefined;
  const percent = typeof at === 'string' ? /^(\d{1,3})%$/.exec(at)?.[1] : undefined;
  return {
    ...(level !== undefined ? { level: level as 'L1' | 'L2' | 'L3' } : {}),
    ...(percent !== undefined ? { percent: Number(percent) } : {}),
  };
}

/** What the worker adds to a resume section: the newest checkpoint observation and the recent context. */
export interface MemoryResumeExtras {
  readonly observationId?: number;
  readonly recentContext?: string;
}

/**
 * Ask the worker for the newest checkpoint observation of the project (MEM-006, at the handoff's level
 * when known) and its recent context (MEM-004), both bounded by `memory.timeoutMs`, at the same time.
 * For the loop runner's `resume-prompt` (a command, not a hook: its own time). Never throws; whatever
 * failed is left out with a diagnostic.
 */
export async function fetchMemoryResumeExtras(
  settings: MemorySettings,
  handoff: LoadedHandoff,
  where: MemoryStepEnv,
  diagnostics: string[],
): Promise<MemoryResumeExtras> {
  if (!settings.enabled) return {};
  try {
    const { openClaudeMemClient } = await import('../memory-service/open-claude-mem-client.ts');
    const opened = await openClaudeMemClient({ env: where.env, timeoutMs: settings.timeoutMs, ...(where.signal ? { signal: where.signal } : {}) });
    if (!opened.ok) {
      diagnostics.push(opened.message);
      return {};
    }
    const project = claudeMemProject(where.projectRoot);
    const { level } = handoffCheckpointOf(handoff);
    const [found, recent] = await Promise.all([
      opened.client.searchCheckpoints(project, { ...(level !== undefined ? { level } : {}), limit: 5 }),
      opened.client.recentContext(project),
    ]);
    if (!found.ok) diagnostics.push(`claude-mem: searching checkpoints failed (${found.failure.kind}): ${found.failure.message}`);
    if (!recent.ok) diagnostics.push(`claude-mem: reading recent context failed (${recent.failure.kind}): ${recent.failure.message}`);
    const newest = found.ok ? found.value[0] : undefined;
    return { ...(newest !== undefined ? { observationId: newest.id } : {}), ...(recent.ok ? { recentContext: recent.value } : {}) };
  } catch (error) {
    diagnostics.push(`claude-mem: ${errorMessage(error)}`);
    return {};
  }
}

/**
 * The "Memory Query (Run First)" section for resuming `handoff` (MEM-003), or undefined when
 * `memory.enabled` is off. Built from the handoff's own front matter, plus `extras` when fetched.
 */
export function memoryResumeSection(settings: MemorySettings, handoff: LoadedHandoff, extras: MemoryResumeExtras = {}): string | undefined {
  if (!settings.enabled) return undefined;
  const { level, percent } = handoffCheckpointOf(handoff);
  return renderMemoryResumeSection({
    ...(level !== undefined ? { level } : {}),
    ...(percent !== undefined ? { percent } : {}),
    handoffPath: handoff.relativePath,
    ...extras,
  });
}
