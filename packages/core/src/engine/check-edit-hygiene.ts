import type { ResolvedConfig } from '../config/config-schema.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import type { AttributedFile, Observation } from './checkpoint-result.ts';
import { mutationTookEffect, type TimelineFacts } from './timeline-facts.ts';
import { pathComparer } from './normalize-path.ts';

export const EDIT_WITHOUT_READ_OBSERVATION = 'Files were edited without being read first this turn — verify changes are correct';
export const BLAST_RADIUS_OBSERVATION = 'Changes span multiple subsystems — consider committing completed work incrementally';

/** Top-level folders that hold several independent subsystems: their children are the areas. */
const CONTAINERS = new Set(['packages', 'apps', 'crates', 'libs', 'services', 'plugins', 'modules']);

/**
 * Edit without read: a file whose existing content was changed in place (edit tool, patch update,
 * `sed -i`, `perl -pi`) — or overwritten whole although it existed in HEAD — without the turn having
 * shown its content first (read tool, `cat`, `sed -n`, `head`, `rg … file`…). Files the turn created
 * or fully wrote count as read from then on. Skipped without transcript data and on a truncated
 * timeline (the read may lie before the window). One observation for all files.
 */
export function checkEditWithoutRead(
  facts: TimelineFacts,
  timeline: Pick<TurnTimeline, 'hasData' | 'truncated'>,
  files: readonly AttributedFile[],
  config: Pick<ResolvedConfig, 'hygiene'>,
): Observation[] {
  if (!config.hygiene.editWithoutRead || !timeline.hasData || timeline.truncated) return [];
  // Needed only for whole-file writes and creations; built on first use (there may be thousands of files).
  let inHead: Set<string> | undefined;
  const existedInHead = (repoPath: string): boolean => {
    inHead ??= new Set(files.filter((f) => f.file.status === 'modified' || f.file.status === 'type-changed').map((f) => f.file.path));
    return inHead.has(repoPath);
  };
  // A Windows repository compares paths without case: a read of `SRC\app.ts` covers an edit of `src\app.ts`.
  const same = pathComparer(facts.base.root);
  const seen = new Set<string>();
  const known = { has: (key: string): boolean => seen.has(same(key)), add: (key: string): void => void seen.add(same(key)) };
  const offending: string[] = [];
  for (const f of facts.calls) {
    if (f.call.outcome !== 'error') for (const r of f.reads) known.add(r);
    if (!mutationTookEffect(f.call)) continue;
    for (const m of f.mutations) {
      switch (m.effect) {
        case 'edit':
          if (!known.has(m.key)) offending.push(f.call.id);
          known.add(m.key);
          break;
        case 'write':
          if (!known.has(m.key) && m.repoPath !== undefined && existedInHead(m.repoPath)) offending.push(f.call.id);
          known.add(m.key);
          break;
        case 'create':
          // A file the turn created is known; `touch` on a file that existed in HEAD shows nothing.
          if (m.repoPath === undefined || !existedInHead(m.repoPath)) known.add(m.key);
          break;
        case 'append':
        case 'delete':
        case 'move':
        case 'other':
          break;
        default:
          return assertNeverEffect(m.effect);
      }
    }
  }
  if (offending.length === 0) return [];
  return [{ kind: 'edit-without-read', text: EDIT_WITHOUT_READ_OBSERVATION, callIds: [...new Set(offending)] }];
}

/**
 * Blast radius: the turn's files span at least `hygiene.blastRadius` distinct top-level areas (0
 * disables). An area is the first folder of a path, or the first two inside a monorepo container
 * (`packages/core`, `apps/web`); files at the repository root are not an area.
 */
export function checkBlastRadius(files: readonly AttributedFile[], config: Pick<ResolvedConfig, 'hygiene'>): Observation[] {
  const threshold = config.hygiene.blastRadius;
  if (threshold <= 0) return [];
  const areas = new Set<string>();
  for (const f of files) {
    const a = area(f.file.path);
    if (a === undefined) continue;
    areas.add(a);
    // Enough areas seen: the rest of thousands of files cannot change the answer.
    if (areas.size >= threshold) return [{ kind: 'blast-radius', text: BLAST_RADIUS_OBSERVATION, callIds: [] }];
  }
  return [];
}

/** The area of a repo-relative path (see {@link checkBlastRadius}). */
export function area(path: string): string | undefined {
  // indexOf rather than split: this runs for every changed file.
  const first = path.indexOf('/');
  if (first === -1) return undefined;
  const top = path.slice(0, first);
  if (!CONTAINERS.has(top)) return top;
  const second = path.indexOf('/', first + 1);
  return second === -1 ? top : path.slice(0, second);
}

function assertNeverEffect(value: never): never {
  throw new Error(`Unexpected effect: ${JSON.stringify(value)}`);
}
