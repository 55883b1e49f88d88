import { readFileSync } from 'node:fs';

/**
 * Reads a small JSONL log written by the harness itself (mock log, probe log). Missing file =
 * no entries; a torn last line (a writer mid-append) is skipped rather than thrown on.
 */
export function readJsonlFile<T = unknown>(file: string): T[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out: T[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      // torn line: ignore
    }
  }
  return out;
}
