import { dirname } from 'node:path';
import type { ResolvedConfig } from '../config/config-schema.ts';
import { categorizeFiles, isDocsOnly } from './categorize-files.ts';
import type { AttributedFile, CheckpointResult } from './checkpoint-result.ts';

/** Options of {@link composeMessage}. */
export interface ComposeMessageOptions {
  /** The session id, substituted for `{sessionId}` in the escape hatch. */
  readonly sessionId?: string;
  /**
   * Absolute path of this session's off-switch file (`<state dir>/switches/session-<id>.off`),
   * substituted for `{offFile}` and used by `{offCommand}`. An agent can create it with its own shell
   * tool — it cannot set the hook's environment, and `agent-checkpoint-hook` may not be on its PATH.
   */
  readonly offFile?: string;
}

/** How many file names the "Changed:" line lists when no category matched. */
const MAX_LISTED_FILES = 5;

/**
 * Render the checkpoint message (seed R9), or undefined to stay silent.
 *
 * Layout of the actionable message, sections separated by a blank line:
 * 1. prefix + header;
 * 2. `Changed: <category labels>` (configuration order), or a short file list when no category matched;
 * 3. actions header and numbered actions in precedence order, then the footer steps (only with actions);
 * 4. observations header and `- <observation>` lines (only with observations);
 * 5. the reminder; 6. the escape hatch (`{sessionId}`, `{offFile}` and `{offCommand}` substituted,
 *    see {@link renderEscapeHatch}).
 *
 * Only docs changed (or nothing): silent, or prefix + `noChanges` + escape hatch when
 * `silentWhenNoChanges` is false. All clear: silent, or prefix + `allClear` + escape hatch when
 * `silentWhenAllClear` is false. Same inputs always give the same bytes.
 */
export function composeMessage(
  result: CheckpointResult,
  files: readonly AttributedFile[],
  config: ResolvedConfig,
  options: ComposeMessageOptions = {},
): string | undefined {
  const m = config.messages;
  const hatch = renderEscapeHatch(m.escapeHatch, options.sessionId, options.offFile);
  const paths = files.map((f) => f.file.path);
  const categorization = categorizeFiles(paths, config);
  if (isDocsOnly(categorization)) {
    return config.silentWhenNoChanges ? undefined : joinSections([`${m.prefix}${m.noChanges}`, hatch]);
  }
  if (result.isAllClear) {
    return config.silentWhenAllClear ? undefined : joinSections([`${m.prefix}${m.allClear}`, hatch]);
  }
  const sections: string[] = [`${m.prefix}${m.header}`.trimEnd()];
  const summary = changedSummary(result, [...categorization.uncategorized, ...categorization.matched.flatMap((x) => x.files)]);
  if (summary !== '') sections.push(`${m.changedLabel} ${summary}`.trim());
  if (result.requiredActions.length > 0) {
    const steps = [...result.requiredActions.map((a) => a.text), ...m.actionsFooter];
    sections.push([m.actionsHeader, ...steps.map((s, i) => `${i + 1}. ${s}`)].filter((l) => l !== '').join('\n'));
  }
  if (result.observations.length > 0) {
    sections.push([m.observationsHeader, ...result.observations.map((o) => `- ${o.text}`)].filter((l) => l !== '').join('\n'));
  }
  sections.push(m.reminder, hatch);
  return joinSections(sections);
}

/** The fail-open fallback: prefix + generic text. */
export function composeGenericMessage(config: ResolvedConfig): string {
  return `${config.messages.prefix}${config.messages.generic}`;
}

/**
 * The escape hatch with its placeholders substituted:
 * - `{sessionId}`: the session id (`<session-id>` when unknown);
 * - `{offFile}`: the absolute path of the session's off-switch file;
 * - `{offCommand}`: a shell command that creates it, `mkdir -p '<dir>' && touch '<file>'` (paths
 *   single-quoted), which an agent can run with its own shell tool. Without an off file (no session id
 *   or no state directory) it falls back to `agent-checkpoint-hook off --session <id>`.
 */
export function renderEscapeHatch(template: string, sessionId: string | undefined, offFile?: string): string {
  const id = sessionId && sessionId !== '' ? sessionId : '<session-id>';
  const file = offFile !== undefined && offFile !== '' ? offFile : undefined;
  const command = file === undefined ? `agent-checkpoint-hook off --session ${id}` : `mkdir -p ${shellQuote(dirname(file))} && touch ${shellQuote(file)}`;
  return template
    .replaceAll('{sessionId}', id)
    .replaceAll('{offFile}', file ?? `<state dir>/switches/session-${id}.off`)
    .replaceAll('{offCommand}', command);
}

/** POSIX single quotes: the only character needing care inside them is the quote itself. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

function changedSummary(result: CheckpointResult, nonDocsFiles: readonly string[]): string {
  if (result.categories.length > 0) return result.categories.map((c) => c.label).join(', ');
  const unique = [...new Set(nonDocsFiles)].sort();
  if (unique.length === 0) return '';
  const shown = unique.slice(0, MAX_LISTED_FILES).map((p) => `\`${p}\``);
  const more = unique.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

function joinSections(sections: readonly string[]): string {
  return sections.filter((s) => s.trim() !== '').join('\n\n');
}
