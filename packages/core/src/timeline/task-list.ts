/**
 * The agent's own task list, as a planning call set it (normalised by the transcript readers: each
 * knows its agent's tool and field names; core knows none). Seed 004's "current item and progress"
 * and the handoff's next steps read it when there is no plan file.
 */

/** A task's state; an agent's own word for it is mapped onto these by its reader. */
export type TaskStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';

/** One task of the list. */
export interface TaskListItem {
  /** The task's text (untrusted: the model wrote it), at most {@link MAX_TASK_TEXT_CHARS}. */
  readonly text: string;
  readonly status: TaskStatus;
}

/** Most tasks kept from one list. */
export const MAX_TASK_LIST_ITEMS = 100;
/** Longest task text kept. */
export const MAX_TASK_TEXT_CHARS = 300;

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['pending', 'in_progress', 'completed', 'cancelled']);

/**
 * A whole task list from a planning call's input (`items`: its array of task objects; `textKey`: the
 * field holding a task's text in that agent's format). Tasks without a text are skipped; a status
 * other than the four known ones reads as `pending`. Undefined when `items` is not an array: the call
 * set no whole list. Bounded: {@link MAX_TASK_LIST_ITEMS} tasks, {@link MAX_TASK_TEXT_CHARS} each.
 */
export function taskListFrom(items: unknown, textKey: string): TaskListItem[] | undefined {
  if (!Array.isArray(items)) return undefined;
  const out: TaskListItem[] = [];
  for (const item of items) {
    if (out.length >= MAX_TASK_LIST_ITEMS) break;
    if (typeof item !== 'object' || item === null) continue;
    const text = (item as Record<string, unknown>)[textKey];
    if (typeof text !== 'string' || text.trim() === '') continue;
    const raw = (item as Record<string, unknown>)['status'];
    const status = typeof raw === 'string' && STATUSES.has(raw) ? (raw as TaskStatus) : 'pending';
    const clean = text.trim().replace(/\s+/g, ' ');
    out.push({ text: clean.length > MAX_TASK_TEXT_CHARS ? `${clean.slice(0, MAX_TASK_TEXT_CHARS - 1)}…` : clean, status });
  }
  return out;
}

/** The newest whole task list among `calls` (the last planning call that set one), if any. */
export function latestTaskList(calls: readonly { readonly taskList?: readonly TaskListItem[] }[]): readonly TaskListItem[] | undefined {
  for (let i = calls.length - 1; i >= 0; i -= 1) {
    const list = calls[i]?.taskList;
    if (list !== undefined) return list;
  }
  return undefined;
}
