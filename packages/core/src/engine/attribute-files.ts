import type { ChangedFile, GitSnapshot } from '../git/changed-file.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import type { AttributedFile, AttributionReason, CheckpointContext } from './checkpoint-result.ts';
import { globMatcher } from './glob-match.ts';
import { turnMayCreateCommit } from './may-create-commit.ts';
import { pathComparer } from './normalize-path.ts';
import { computeTimelineFacts } from './timeline-facts.ts';

/** Input of {@link attributeFiles}. */
export interface AttributeFilesInput {
  readonly snapshot: Extract<GitSnapshot, { kind: 'repo' }>;
  readonly timeline: TurnTimeline;
  readonly context: CheckpointContext;
  /** When the turn started (ms since the epoch); defaults to `timeline.startedAt`. */
  readonly turnStartMs?: number;
}

/**
 * The file axis of this turn (docs/turn-attribution.md): the changed files — uncommitted, or committed
 * since the turn started (`source: 'committed'`, pre-filtered by the git reader) — that this turn
 * touched:
 * - an edit/write/patch call names it (`tool-mutation`; failed calls changed nothing and do not count);
 * - a mutating command of a successful or still-running shell call targets it, or a directory or glob
 *   containing it (`shell-mutation`). Read-only commands (`cat f`, `pytest f`, `git diff f`) never
 *   count, whatever paths they name;
 * - its mtime is at or after the turn start (`modified-during-turn`: formatters, generators, commands
 *   we cannot parse);
 * - it was committed during the turn (`committed-during-turn`). A commit of the turn-start second that
 *   the git reader could not place before or after the prompt (`uncertainCommit`) counts only when the
 *   turn could have made a commit (a shell or unknown tool call, a truncated or missing transcript).
 * Without transcript data every uncommitted file counts (`fallback-all-uncommitted`): the file-based
 * actions still reach the agent (seed: "bad transcript → file-based instructions only").
 *
 * A truncated timeline (the turn began before the byte-capped read, so its start is unknown) keeps
 * the tail's calls, and modification times stand in for the unread part: the turn began before the
 * first call read ({@link turnStartBoundMs}), so a file modified since then is `modified-during-turn`,
 * and any other uncommitted file is `truncated-unread-part` — the unread part may have changed it,
 * and a long turn must not lose its checkpoint where a missing transcript keeps it.
 *
 * Renames match on either path. The result is sorted by path.
 */
export function attributeFiles(input: AttributeFilesInput): AttributedFile[] {
  const { snapshot, timeline, context } = input;
  if (!timeline.hasData) {
    return sortByPath(
      snapshot.files.map((file) =>
        file.source === 'committed'
          ? { file, reason: 'committed-during-turn' as const, callIds: [] }
          : { file, reason: 'fallback-all-uncommitted' as const, callIds: [] },
      ),
    );
  }
  const startUnknown = timeline.truncated && parseTime(timeline.startedAt) === undefined;
  const turnStartMs = input.turnStartMs ?? turnStartBoundMs(timeline);
  const base = { root: snapshot.root, cwd: context.cwd ?? timeline.cwd ?? context.projectRoot };
  const facts = computeTimelineFacts(timeline.calls, base);

  const toolTouches = new Map<string, string[]>();
  const shellTouches = new Map<string, string[]>();
  /** Every shell mutation target, also used as a directory prefix (`rm -rf build`). */
  const dirTouches = new Map<string, string[]>();
  const globTouches: { match: (p: string) => boolean; callId: string }[] = [];
  // On a Windows repository every lookup below compares paths without case.
  const same = pathComparer(snapshot.root);
  const note = (map: Map<string, string[]>, repoPath: string, id: string): void => {
    const path = same(repoPath);
    const list = map.get(path);
    if (!list) map.set(path, [id]);
    else if (!list.includes(id)) list.push(id);
  };
  for (const f of facts.calls) {
    const call = f.call;
    if (call.kind === 'shell') {
      if (call.outcome === 'error') continue;
      for (const m of f.mutations) {
        if (m.repoPath === undefined) continue;
        note(shellTouches, m.repoPath, call.id);
        note(dirTouches, m.repoPath, call.id);
      }
      for (const g of f.mutationGlobs) globTouches.push({ match: globMatcher([g.glob]), callId: call.id });
      continue;
    }
    if (call.kind === 'edit' || call.kind === 'write' || call.kind === 'patch') {
      if (call.outcome === 'error') continue;
      for (const m of f.mutations) if (m.repoPath !== undefined) note(toolTouches, m.repoPath, call.id);
    }
  }

  // A commit of the turn-start second that the object store could not place before or after the
  // prompt is the turn's only if the turn could have made it.
  const dropUncertainCommits =
    snapshot.files.some((f) => f.uncertainCommit === true) && !turnMayCreateCommit(timeline, (i) => facts.calls[i]?.segments ?? []);

  const out: AttributedFile[] = [];
  // Thousands of changed files against a handful of touches: look up only the kinds of touch this
  // turn has, and allocate call id lists only for touched files.
  const byShell = shellTouches.size > 0 || globTouches.length > 0;
  for (const file of snapshot.files) {
    if (dropUncertainCommits && file.uncertainCommit === true) continue;
    const toolIds: string[] = [];
    const shellIds: string[] = [];
    if (toolTouches.size > 0) {
      pushAll(toolIds, toolTouches.get(same(file.path)));
      if (file.fromPath !== undefined) pushAll(toolIds, toolTouches.get(same(file.fromPath)));
    }
    if (byShell) {
      const names = file.fromPath !== undefined ? [file.path, file.fromPath] : [file.path];
      for (const n of names) pushAll(shellIds, shellTouches.get(same(n)));
      if (dirTouches.size > 0) for (const n of names) for (const dir of ancestors(n)) pushAll(shellIds, dirTouches.get(same(dir)));
      for (const g of globTouches) if (names.some((n) => g.match(n))) shellIds.push(g.callId);
    }
    const reason = reasonFor(file, toolIds.length > 0, shellIds.length > 0, turnStartMs, startUnknown);
    if (!reason) continue;
    const callIds = toolIds.length + shellIds.length === 0 ? [] : [...new Set([...toolIds, ...shellIds])];
    out.push({ file, reason, callIds });
  }
  return sortByPath(out);
}

function pushAll(into: string[], ids: readonly string[] | undefined): void {
  if (ids !== undefined) for (const id of ids) into.push(id);
}

function reasonFor(
  file: ChangedFile,
  byTool: boolean,
  byShell: boolean,
  turnStartMs: number | undefined,
  startUnknown: boolean,
): AttributionReason | undefined {
  if (byTool) return 'tool-mutation';
  if (byShell) return 'shell-mutation';
  if (file.source === 'committed') return 'committed-during-turn';
  if (turnStartMs !== undefined && file.mtimeMs !== undefined && file.mtimeMs >= turnStartMs) return 'modified-during-turn';
  if (startUnknown) return 'truncated-unread-part';
  return undefined;
}

/**
 * When the turn started, as far as the timeline tells (ms since the epoch): its prompt time; for a
 * truncated timeline without one, the earliest time of a call that was read — the turn began before
 * it, so it bounds the part that was read (commits and modifications after it are the turn's).
 * Undefined when no time is known.
 */
export function turnStartBoundMs(timeline: Pick<TurnTimeline, 'startedAt' | 'truncated' | 'calls'>): number | undefined {
  const started = parseTime(timeline.startedAt);
  if (started !== undefined || !timeline.truncated) return started;
  let earliest: number | undefined;
  for (const call of timeline.calls) {
    const t = parseTime(call.timestamp);
    if (t !== undefined && (earliest === undefined || t < earliest)) earliest = t;
  }
  return earliest;
}

/** `a/b/c.py` → `a`, `a/b`. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) out.push(path.slice(0, i));
  return out;
}

function parseTime(iso: string | undefined): number | undefined {
  if (iso === undefined) return undefined;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : undefined;
}

function sortByPath(files: AttributedFile[]): AttributedFile[] {
  return files.sort((a, b) => (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0));
}
