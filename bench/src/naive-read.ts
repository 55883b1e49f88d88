// The naive baseline, as a process: what peer tools do at the end of every turn — read the whole
// transcript with readFileSync, split it into lines and JSON.parse every one of them.
//
//   node naive-read.mjs <transcript.jsonl>
//
// Prints one JSON line ({ lines, parsed, corrupt } or { error }) and exits 0, or 2 when the read
// itself failed (a file over V8's string limit, ~512 MiB, throws ERR_STRING_TOO_LONG).
import { readFileSync } from 'node:fs';

const path = process.argv[2];
if (path === undefined) {
  process.stderr.write('usage: naive-read <file>\n');
  process.exit(64);
}
try {
  const lines = readFileSync(path, 'utf8').split('\n');
  let parsed = 0;
  let corrupt = 0;
  const entries: unknown[] = [];
  for (const line of lines) {
    if (line === '') continue;
    try {
      entries.push(JSON.parse(line));
      parsed += 1;
    } catch {
      corrupt += 1;
    }
  }
  process.stdout.write(`${JSON.stringify({ lines: lines.length, parsed, corrupt, kept: entries.length })}\n`);
} catch (error) {
  const code = (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));
  process.stdout.write(`${JSON.stringify({ error: code })}\n`);
  process.exitCode = 2;
}
