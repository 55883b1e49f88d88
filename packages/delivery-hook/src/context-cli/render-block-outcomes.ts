import { BLOCK_OUTCOME_KINDS, forTerminal, type BlockOutcomeReport, type OutcomeCounts } from '@agent-checkpoint/core';

/**
 * `report`'s block outcome section: per category and per rule, how many blocks, what became of them
 * and the precision (the acted-on share of those with a known outcome). Category and rule ids come from
 * configuration files, so every line goes through the terminal sanitiser.
 */
export function renderBlockOutcomes(report: BlockOutcomeReport): string {
  const lines: string[] = [];
  const span = report.from !== undefined && report.to !== undefined ? ` (${report.from.slice(0, 10)} to ${report.to.slice(0, 10)})` : '';
  const pending = report.pending > 0 ? `; ${report.pending} waiting for the next stop` : '';
  lines.push(`Block outcomes: ${plural(report.total.blocks, 'block')}${span}${pending}`);
  if (report.total.blocks > 0) {
    lines.push(`  all: ${counts(report.total)}`);
    section(lines, 'By category', report.byCategory);
    section(lines, 'By rule', report.byRule);
  }
  return `${lines.map((line) => forTerminal(line)).join('\n')}\n`;
}

function section(lines: string[], title: string, entries: Readonly<Record<string, OutcomeCounts>>): void {
  const keys = Object.keys(entries);
  if (keys.length === 0) return;
  lines.push(`${title}:`);
  for (const key of keys) lines.push(`  ${key}: ${counts(entries[key]!)}`);
}

/** `3 blocks: acted on 2, disputed 1, ignored 0, switched off 0, unknown 0; precision 67 %`. */
function counts(c: OutcomeCounts): string {
  const parts = BLOCK_OUTCOME_KINDS.map((k) => `${k.replace('-', ' ')} ${c.outcomes[k]}`);
  const precision = c.precision === undefined ? 'n/a' : `${Math.round(c.precision * 100)} %`;
  return `${plural(c.blocks, 'block')}: ${parts.join(', ')}; precision ${precision}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
