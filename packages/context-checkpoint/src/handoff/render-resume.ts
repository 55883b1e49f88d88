import type { LoadedHandoff } from './latest-handoff.ts';
import { codeSpan, inlineText } from './markdown-text.ts';

/** Most files in progress named in a resume prompt. */
const MAX_RESUME_FILES = 10;
/** Most `**File**` lines (file and line ranges) in a resume prompt's "Resume From". */
const MAX_RESUME_FILE_LINES = 5;

/**
 * A PROMPT.md section for loop runners (seed 004, Ralph design): the next iteration resumes from the
 * handoff instead of restarting the task. Deterministic for a given handoff (and memory section: the
 * "Memory Query (Run First)" section when claude-mem is on, placed before the instructions).
 */
export function renderResumePrompt(handoff: LoadedHandoff, memorySection?: string): string {
  const fm = handoff.frontMatter;
  // The handoff is a repository file: what its front matter says is placed mid-line, escaped.
  const trigger = inlineText(scalar(fm['checkpoint_trigger']) ?? 'a checkpoint');
  const when = inlineText([scalar(fm['session_date']), scalar(fm['session_time'])].filter((s) => s !== undefined).join(' '));
  const rawBranch = scalar(fm['branch']);
  const branch = rawBranch === undefined ? undefined : inlineText(rawBranch);
  const files = list(fm['modified_files']);
  const resumeFrom = [
    ...workLines(fm),
    `- **Handoff**: ${inlineText(handoff.relativePath)}`,
    ...(branch !== undefined ? [`- **Branch**: ${branch}`] : []),
    // Older handoffs (and a work tree whose line ranges git could not give) name the files only.
    ...(files.length > 0 && list(fm['files_in_progress']).length === 0 ? [`- **Files in progress**: ${filesLine(files)}`] : []),
  ];
  return [
    '## CONTEXT CHECKPOINT RESUME',
    '',
    '> This iteration is resuming from a context checkpoint.',
    `> The previous session stopped at ${trigger}${when !== '' ? ` on ${when}` : ''}.`,
    '',
    '### Resume From',
    '',
    ...resumeFrom,
    '',
    // claude-mem's queries first, as the seed's PROMPT.md has them (MEM-003), when memory is on.
    ...(memorySection !== undefined ? [memorySection, ''] : []),
    '### Instructions',
    '',
    '1. DO NOT restart the task from scratch.',
    ...(memorySection !== undefined ? ['2. Run the memory queries above, then read the handoff document.'] : ['2. Read the handoff document first.']),
    '3. Continue from where the previous session left off.',
    '',
  ].join('\n');
}

/**
 * Additional context for a SessionStart hook: two or three sentences pointing at the handoff. Kept
 * short on purpose: the agent reads the document itself.
 */
export function renderSessionStartContext(handoff: LoadedHandoff): string {
  const fm = handoff.frontMatter;
  const trigger = scalar(fm['checkpoint_trigger']);
  const when = [scalar(fm['session_date']), scalar(fm['session_time'])].filter((s) => s !== undefined).join(' ');
  const detail = [trigger, when].filter((s) => s !== undefined && s !== '').join(', ');
  const files = list(fm['files_in_progress']).length > 0 ? list(fm['files_in_progress']) : list(fm['modified_files']);
  const item = scalar(fm['current_item']);
  const progress = scalar(fm['progress']);
  const sentences = [
    `The previous session ended with a context checkpoint${detail !== '' ? ` (${detail})` : ''}.`,
    `Read ${handoff.relativePath} before continuing: it lists what was done, files in progress, failing commands and next steps.`,
    ...(item !== undefined ? [`Current item: ${item}${progress !== undefined ? ` (${progress})` : ''}.`] : []),
    ...(files.length > 0 ? [`Files in progress: ${filesLine(files)}.`] : []),
    'Do not restart the task from scratch.',
  ];
  // The handoff is a repository file: nothing in its front matter or path may break the paragraph.
  return inlineText(sentences.join(' '));
}

/**
 * The seed's "Resume From" lines: each file with the lines being worked on (`- **File**: src/a.ts
 * (lines 45-120)`), the current item with its progress. From the handoff's front matter, escaped.
 */
function workLines(fm: LoadedHandoff['frontMatter']): string[] {
  const lines: string[] = [];
  const files = list(fm['files_in_progress']);
  for (const file of files.slice(0, MAX_RESUME_FILE_LINES)) lines.push(`- **File**: ${inlineText(file)}`);
  if (files.length > MAX_RESUME_FILE_LINES) lines.push(`- **More files**: ${files.length - MAX_RESUME_FILE_LINES} (listed in the handoff)`);
  const item = scalar(fm['current_item']);
  const progress = scalar(fm['progress']);
  if (item !== undefined) lines.push(`- **Item**: ${inlineText(item)}${progress !== undefined ? ` (${inlineText(progress)})` : ''}`);
  else if (progress !== undefined) lines.push(`- **Progress**: ${inlineText(progress)}`);
  return lines;
}

function filesLine(files: readonly string[]): string {
  const shown = files.slice(0, MAX_RESUME_FILES).map(codeSpan).join(', ');
  return files.length > MAX_RESUME_FILES ? `${shown} and ${files.length - MAX_RESUME_FILES} more` : shown;
}

function scalar(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function list(value: string | readonly string[] | undefined): readonly string[] {
  return Array.isArray(value) ? value : [];
}
