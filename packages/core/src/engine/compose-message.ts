import type { ResolvedConfig } from '../config/config-schema.ts';
import { categorizeFiles, isDocsOnly } from './categorize-files.ts';
import type { AttributedFile, CheckpointResult } from './checkpoint-result.ts';

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
 * 5. the reminder; 6. the escape hatch (`{sessionId}` substituted).
 *
 * Only docs changed (or nothing): silent, or prefix + `noChanges` + escape hatch when
 * `silentWhenNoChanges` is false. All clear: silent, or prefix + `allClear` + escape hatch when
 * `silentWhenAllClear` is false. Same inputs always give the same bytes.
 */
export function composeMessage(
  result: CheckpointResult,
  files: readonly AttributedFile[],
  config: ResolvedConfig,
  options: { sessionId?: string } = {},
): string | undefined {
  const m = config.messages;
  const hatch = renderEscapeHatch(m.escapeHatch, options.sessionId);
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

/** The escape hatch with the session id substituted (a placeholder when unknown). */
export function renderEscapeHatch(template: string, sessionId: string | undefined): string {
  return template.replaceAll('{sessionId}', sessionId && sessionId !== '' ? sessionId : '<session-id>');
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
