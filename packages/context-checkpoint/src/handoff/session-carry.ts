import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { openPlanItems } from '../estimate/parse-plan-items.ts';
import { workTreeRelative } from './work-tree-path.ts';

/**
 * What a handoff carries of the session beyond the turn (seed 004 HND-004..006, P3): the plan's open
 * items as next steps, the decisions stated this session, and the memory files' sections to reload.
 * Everything here reads untrusted text (transcripts, files in the working tree): bounded reads,
 * bounded counts, plain strings out; the renderer escapes them like every other field.
 */

/** Most decisions kept. */
export const MAX_DECISIONS = 20;
/** Most open plan items listed under Next Steps. */
export const MAX_PLAN_STEPS = 20;
/** Most headings listed per memory file. */
export const MAX_MEMORY_HEADINGS = 30;
/** Bytes read from a memory file or plan (their heads: headings and open items past this are not listed). */
const MAX_READ_BYTES = 256 * 1024;
const MAX_ITEM_CHARS = 300;

/** The headings of one memory file, for "Context To Reload". */
export interface MemorySections {
  readonly file: string;
  readonly headings: readonly string[];
}

// Matched against lines cut to 4096 characters; no two quantifiers compete for the same characters.
const DECISION_LINE = /^[ \t]*(?:[-*+][ \t]+|\d{1,4}[.)][ \t]+)?(?:\*\*|__)?(?:decision|decided)(?:\*\*|__)?:(?:\*\*|__)?[ \t]*(\S.*)$/i;
const DECIDED_SENTENCE = /^[ \t]*(?:[-*+][ \t]+|\d{1,4}[.)][ \t]+)?((?:we|i)(?: have)? decided\b.*)$/i;
const DECISIONS_HEADING = /^\s{0,3}#{1,6}\s+decisions?\b/i;
const ANY_HEADING = /^\s{0,3}#{1,6}\s/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(.+)$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * The explicit decision statements in assistant text: lines `Decision: …` / `Decided: …` (also as a
 * list item or in bold), lines starting "We decided …" / "I decided …", and the list items of a
 * `## Decisions` section. Code blocks are skipped. Deduplicated, in order, at most
 * {@link MAX_DECISIONS}, each cut to 300 characters.
 */
export function extractDecisions(texts: readonly (string | undefined)[]): string[] {
  const found: string[] = [];
  const add = (raw: string): void => {
    const text = raw.trim().replace(/\s+/g, ' ');
    const cutText = text.length > MAX_ITEM_CHARS ? `${text.slice(0, MAX_ITEM_CHARS - 1)}…` : text;
    if (cutText !== '' && !found.includes(cutText) && found.length < MAX_DECISIONS) found.push(cutText);
  };
  for (const text of texts) {
    if (text === undefined) continue;
    let inFence = false;
    let inSection = false;
    // Bounded: a huge message is scanned in its first 200 KB only (split is linear; no backtracking patterns).
    for (const full of text.slice(0, 200_000).split(/\r?\n/)) {
      const line = full.slice(0, 4096);
      if (FENCE.test(line)) {
        inFence = !inFence;
        continue;
      }
      if (inFence) continue;
      if (DECISIONS_HEADING.test(line)) {
        inSection = true;
        continue;
      }
      if (ANY_HEADING.test(line)) inSection = false;
      const decision = DECISION_LINE.exec(line) ?? DECIDED_SENTENCE.exec(line);
      if (decision?.[1] !== undefined) add(decision[1]);
      else if (inSection) {
        const item = LIST_ITEM.exec(line);
        if (item?.[1] !== undefined) add(item[1]);
      }
    }
  }
  return found;
}

/** The headings (levels 1–3, outside code fences) of Markdown text, at most {@link MAX_MEMORY_HEADINGS}. */
export function markdownHeadings(markdown: string): string[] {
  const headings: string[] = [];
  let inFence = false;
  for (const full of markdown.split(/\r?\n/)) {
    const line = full.slice(0, 4096);
    if (FENCE.test(line)) inFence = !inFence;
    if (inFence) continue;
    const m = /^ {0,3}(#{1,3})[ \t]+(\S.*)$/.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined) {
      // Closing hashes (`## Build ##`) dropped with string operations, not a backtracking pattern.
      const title = m[2].trimEnd().replace(/[ \t]+#+$/, '').trimEnd();
      headings.push(`${m[1]} ${title.length > 120 ? `${title.slice(0, 119)}…` : title}`);
      if (headings.length >= MAX_MEMORY_HEADINGS) break;
    }
  }
  return headings;
}

/**
 * The head of a repo-relative file (at most 256 KiB), or undefined when it is absent, not a regular
 * file, or the path is absolute or leaves the root. A symlink is followed only when it resolves inside
 * the work tree (memory files often are symlinks; one planted to a file elsewhere, or into `.git/`, must
 * not copy that file's lines into the handoff). A FIFO never blocks (O_NONBLOCK).
 */
async function readHead(root: string, relPath: string): Promise<string | undefined> {
  if (isAbsolute(relPath) || relPath.split(/[\\/]/).includes('..')) return undefined;
  let handle;
  try {
    const [realRoot, real] = await Promise.all([realpath(root), realpath(join(root, relPath))]);
    if (workTreeRelative(realRoot, real) === undefined) return undefined;
    handle = await open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_READ_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_READ_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** The sections of each memory file to reload (files without headings are left out). Never throws. */
export async function readMemorySections(root: string, files: readonly string[]): Promise<MemorySections[]> {
  const out: MemorySections[] = [];
  for (const file of files) {
    const text = await readHead(root, file);
    if (text === undefined) continue;
    const headings = markdownHeadings(text);
    if (headings.length > 0) out.push({ file, headings });
  }
  return out;
}

/** The plan's open items (unchecked boxes, TODO lines), at most {@link MAX_PLAN_STEPS} plus the total. Never throws. */
export async function readPlanOpenItems(root: string, planFile: string): Promise<{ items: string[]; total: number } | undefined> {
  const text = await readHead(root, planFile);
  if (text === undefined) return undefined;
  const open = openPlanItems(text);
  return { items: open.slice(0, MAX_PLAN_STEPS).map((item) => item.text), total: open.length };
}
