import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { type AgentId, ensureDirSafelySync, forModelText } from '@agent-checkpoint/core';
import { join } from 'node:path';
import { AGENT_CHECKPOINT_DIR, ensureAgentCheckpointDir } from '../handoff/agent-checkpoint-dir.ts';
import { foreignHandoffNotice, handoffOrigin } from '../handoff/handoff-provenance.ts';
import { latestHandoff, type LatestHandoffOptions, type LoadedHandoff } from '../handoff/latest-handoff.ts';
import { renderSessionStartContext } from '../handoff/render-resume.ts';
import type { MemorySettings } from '../memory-service/memory-settings.ts';
import { memoryResumeSection } from './memory-step.ts';

/** Handoffs older than this are not injected into a starting session (they describe other work by now). */
export const RESUME_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Most characters of the handoff document injected after the pointer sentences. */
export const MAX_INJECTED_HANDOFF_CHARS = 8000;

/** Where injected handoffs are recorded, inside the repository's ignored `.agent-checkpoint/`. */
const INJECTED_DIR = 'injected';

/**
 * Result of {@link claimResumeHandoff}. `notice`: one line naming the newest handoff in the window
 * that this installation did not write (or that changed since), which was passed over.
 */
export type ResumeHandoffClaim = (
  | { readonly kind: 'inject'; readonly handoff: LoadedHandoff; readonly context: string }
  | { readonly kind: 'none'; readonly reason: 'no-handoff' | 'already-injected' | 'unwritable'; readonly detail: string }
) & { readonly notice?: string };

/**
 * The handoff a starting session should see, claimed so that it is injected **once**: the newest
 * handoff younger than `maxAgeMs` that this installation wrote (recorded with its digest in
 * `stateDir`, see `handoff-provenance.ts`) and that no session has received yet. A handoff that came
 * with the repository, was planted, or changed since we wrote it is passed over and named in `notice`.
 *
 * Once per handoff (per repository), not once per session: a loop runner starts a new session for
 * every iteration, and only the first after the checkpoint should be told "the previous session ended
 * with a checkpoint" — the next ones continue from that session's own work. The claim is a marker
 * file created with `O_EXCL` under `.agent-checkpoint/injected/`, so two sessions starting at once
 * cannot both get it. A marker that cannot be written means no injection (better silent than
 * repeated forever). Never throws.
 */
export async function claimResumeHandoff(options: {
  readonly projectRoot: string;
  /** The user's private state directory, holding the records of the handoffs we wrote. */
  readonly stateDir: string;
  /** Repo-relative handoff directory (`handoff.dir`). */
  readonly dir?: string;
  readonly now: Date;
  readonly maxAgeMs?: number;
  readonly agent: AgentId;
  readonly sessionId?: string;
  /** With `memory.enabled`: the context ends with the "Memory Query (Run First)" section (MEM-003). */
  readonly memory?: MemorySettings;
}): Promise<ResumeHandoffClaim> {
  const found = await latestOwnHandoff(options.projectRoot, options.stateDir, {
    ...(options.dir !== undefined ? { dir: options.dir } : {}),
    now: options.now,
    maxAgeMs: options.maxAgeMs ?? RESUME_MAX_AGE_MS,
  });
  const { handoff } = found;
  const withNotice = <T extends object>(claim: T): T & { readonly notice?: string } => (found.notice !== undefined ? { ...claim, notice: found.notice } : claim);
  if (handoff === undefined) return withNotice({ kind: 'none', reason: 'no-handoff', detail: 'no handoff of ours younger than the resume window' });
  const marker = join(options.projectRoot, AGENT_CHECKPOINT_DIR, INJECTED_DIR, `${digest(handoff.relativePath)}.json`);
  const unwritable = (error: unknown): ResumeHandoffClaim =>
    withNotice({
      kind: 'none',
      reason: 'unwritable',
      detail: `cannot record the injection in ${marker}: ${(error as Error).message}`,
    });
  try {
    await ensureAgentCheckpointDir(options.projectRoot);
    // No symlink on the way (see fs-safe); the marker itself is created exclusively (`wx`).
    ensureDirSafelySync(options.projectRoot, `${AGENT_CHECKPOINT_DIR}/${INJECTED_DIR}`, { dirMode: 0o755 });
  } catch (error) {
    return unwritable(error);
  }
  try {
    const record = { handoff: handoff.relativePath, agent: options.agent, sessionId: options.sessionId ?? null, at: options.now.toISOString() };
    await writeFile(marker, `${JSON.stringify(record)}\n`, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      return withNotice({ kind: 'none', reason: 'already-injected', detail: `${handoff.relativePath} was already given to a session` });
    }
    return unwritable(error);
  }
  // No request to claude-mem here: its own SessionStart hook loads the recent context; the section
  // names the queries, from the handoff's own front matter.
  const memory = options.memory !== undefined ? memoryResumeSection(options.memory, handoff) : undefined;
  return withNotice({ kind: 'inject', handoff, context: renderResumeContext(handoff, memory) });
}

/**
 * The newest handoff in the window that this installation wrote, and a one-line notice naming the
 * newest foreign one passed over on the way (never its content). Used by session start and
 * `resume-prompt`: the one rule for every place that puts a handoff into a model's context.
 */
export async function latestOwnHandoff(
  projectRoot: string,
  stateDir: string,
  options: Omit<LatestHandoffOptions, 'accept'>,
): Promise<{ readonly handoff?: LoadedHandoff; readonly notice?: string }> {
  let notice: string | undefined;
  const handoff = await latestHandoff(projectRoot, {
    ...options,
    accept: (candidate) => {
      const origin = handoffOrigin(stateDir, projectRoot, candidate.relativePath, candidate.markdown);
      if (origin.kind === 'ours') return true;
      notice ??= foreignHandoffNotice(candidate.relativePath, origin.why);
      return false;
    },
  });
  return { ...(handoff !== undefined ? { handoff } : {}), ...(notice !== undefined ? { notice } : {}) };
}

/**
 * What a SessionStart hook injects: the pointer sentences (`renderSessionStartContext`), then the
 * handoff document itself, cut at {@link MAX_INJECTED_HANDOFF_CHARS} with a note to read the file.
 */
export function renderResumeContext(handoff: LoadedHandoff, memorySection?: string): string {
  const body = handoff.markdown.trimEnd();
  const shown =
    body.length > MAX_INJECTED_HANDOFF_CHARS
      ? `${body.slice(0, MAX_INJECTED_HANDOFF_CHARS)}\n\n[… cut at ${MAX_INJECTED_HANDOFF_CHARS} characters: read ${handoff.relativePath} for the rest]`
      : body;
  // The document is a repository file (an agent may have written anything in it): no control
  // character reaches the model's context.
  const memory = memorySection !== undefined ? `\n\n${memorySection}` : '';
  return forModelText(`${renderSessionStartContext(handoff)}${memory}\n\n${shown}\n`);
}

function digest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}
