import { codeSpan, firstLine, inlineText } from '../handoff/markdown-text.ts';

/** The heading of the section agent-checkpoint maintains in the agent memory file. */
export const LAST_SESSION_HEADING = '## Last Session';

/** Most files named in the section. */
const MAX_SECTION_FILES = 10;

/** What the `## Last Session` section says. */
export interface LastSessionInfo {
  /** `2026-01-07 11:45 UTC` */
  readonly when: string;
  /** `L2 (context at 86%)` */
  readonly trigger: string;
  readonly branch: string;
  /** Repo-relative path of the handoff document. */
  readonly handoff: string;
  /** True when the handoff lies in the git-ignored `.agent-checkpoint/` (local to this machine). */
  readonly handoffIsLocal: boolean;
  /** Repo-relative files with uncommitted changes. */
  readonly filesInProgress: readonly string[];
  /** Failed commands still unresolved (`pnpm test (exit 1)`). */
  readonly failing: readonly string[];
  /** One line: what to do next. */
  readonly next?: string;
}

/** The section's lines, heading excluded. */
export function renderLastSessionBody(info: LastSessionInfo): string[] {
  const files = info.filesInProgress.slice(0, MAX_SECTION_FILES).map(codeSpan).join(', ');
  const more = info.filesInProgress.length > MAX_SECTION_FILES ? ` and ${info.filesInProgress.length - MAX_SECTION_FILES} more` : '';
  return [
    '<!-- Maintained by agent-checkpoint: this section is replaced at every automatic checkpoint. -->',
    '',
    `- **When**: ${info.when}`,
    `- **Checkpoint**: ${info.trigger}`,
    `- **Branch**: ${info.branch}`,
    `- **Handoff**: ${codeSpan(info.handoff)}${info.handoffIsLocal ? ' (local file, not committed)' : ''}`,
    `- **Files in progress**: ${files === '' ? 'none' : files + more}`,
    ...(info.failing.length > 0 ? [`- **Failing**: ${info.failing.slice(0, 5).map((f) => codeSpan(firstLine(f, 120))).join(', ')}`] : []),
    ...(info.next !== undefined && info.next.trim() !== '' ? [`- **Next**: ${firstLine(info.next, 300)}`] : []),
    // Each entry is one line whatever it quotes (file names, branch, failing commands): nothing in
    // them can start a heading or end the section.
  ].map(inlineText);
}

/** A new memory file: a minimal title, then the section. */
export function newMemoryFileText(fileName: string, body: readonly string[]): string {
  return `# ${fileName}\n\n${LAST_SESSION_HEADING}\n\n${body.join('\n')}\n`;
}

/**
 * Replace the `## Last Session` section of `text` with `body`, or append the section when there is
 * none. Everything outside the section is kept byte for byte.
 *
 * - The section starts at the first line `## Last Session…` (any trailing text, case-insensitive)
 *   outside fenced code blocks, and ends before the next level-1 or level-2 heading outside fenced
 *   code (`### ` subsections belong to it), or at the end of the text.
 * - Line endings follow the file: CRLF when the file uses CRLF, else LF.
 * - Appending never changes existing bytes: a missing final newline is completed only in the appended
 *   part, after which one blank line separates the section.
 */
export function replaceLastSessionSection(text: string, body: readonly string[]): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const section = `${LAST_SESSION_HEADING}${eol}${eol}${body.join(eol)}${eol}`;
  const lines = splitLines(text);
  let start: number | undefined;
  let end: number | undefined;
  let fence: { char: string; length: number } | undefined;
  for (const line of lines) {
    const content = line.text;
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(content);
    if (fence) {
      if (open && open[1]?.[0] === fence.char && (open[1]?.length ?? 0) >= fence.length && content.trim() === open[1]) fence = undefined;
      continue;
    }
    if (open) {
      fence = { char: open[1]?.[0] as string, length: open[1]?.length ?? 3 };
      continue;
    }
    if (start === undefined) {
      if (/^##[ \t]+last session\b/i.test(content)) start = line.offset;
    } else if (/^#{1,2}([ \t]|$)/.test(content)) {
      end = line.offset;
      break;
    }
  }
  if (start === undefined) {
    if (text === '') return section;
    const completed = text.endsWith('\n') ? '' : eol;
    return `${text}${completed}${eol}${section}`;
  }
  const prefix = text.slice(0, start);
  if (end === undefined) return `${prefix}${section}`;
  return `${prefix}${section}${eol}${text.slice(end)}`;
}

/** Lines with the offset of their first character; the text excludes the line break. */
function splitLines(text: string): { text: string; offset: number }[] {
  const out: { text: string; offset: number }[] = [];
  let offset = 0;
  while (offset < text.length) {
    const nl = text.indexOf('\n', offset);
    const endOfLine = nl === -1 ? text.length : nl;
    const raw = text.slice(offset, endOfLine);
    out.push({ text: raw.endsWith('\r') ? raw.slice(0, -1) : raw, offset });
    offset = endOfLine + 1;
  }
  return out;
}
