import { createTwoFilesPatch } from 'diff';
import type { TerminalStyle } from './terminal-style.ts';

/**
 * A unified diff of a planned change, for `--dry-run`: `/dev/null` stands for a missing file on
 * either side. Lines are coloured when the style is on.
 */
export function renderDiff(path: string, before: string | undefined, after: string | undefined, style: TerminalStyle): string {
  const patch = createTwoFilesPatch(
    before === undefined ? '/dev/null' : path,
    after === undefined ? '/dev/null' : path,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: 3 },
  );
  return patch
    .split('\n')
    .filter((line) => !line.startsWith('=====') && !line.startsWith('Index: '))
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return style.bold(line);
      if (line.startsWith('+')) return style.green(line);
      if (line.startsWith('-')) return style.red(line);
      if (line.startsWith('@@')) return style.cyan(line);
      return line;
    })
    .join('\n');
}
