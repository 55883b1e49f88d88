import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { fixture } from './fixtures.ts';

const TEMPLATE_PROMPT_ID = '26503c65-2dad-486e-b957-ffba2c73ee59';

/**
 * Write a large, realistic transcript: the real `stop-block-json.jsonl` session repeated until the
 * file reaches `targetBytes`, each repetition a distinct turn (its own prompt id and tool ids), as a
 * long `--resume`d session would look. Returns the last turn's prompt id and the repetition count.
 */
export function writeRepeatedSession(path: string, targetBytes: number): { lastPromptId: string; repetitions: number; bytes: number } {
  const template = readFileSync(fixture('stop-block-json.jsonl'), 'utf8');
  const fd = openSync(path, 'w');
  let bytes = 0;
  let repetition = 0;
  let lastPromptId = TEMPLATE_PROMPT_ID;
  try {
    while (bytes < targetBytes) {
      repetition += 1;
      lastPromptId = `26503c65-2dad-486e-b957-${String(repetition).padStart(12, '0')}`;
      const chunk = template.replaceAll(TEMPLATE_PROMPT_ID, lastPromptId).replaceAll('toolu_mock', `toolu_r${repetition}_`);
      bytes += writeSync(fd, chunk);
    }
  } finally {
    closeSync(fd);
  }
  return { lastPromptId, repetitions: repetition, bytes };
}
