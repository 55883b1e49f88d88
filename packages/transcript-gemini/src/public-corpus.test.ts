import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  describePublicCorpusConformance,
  publicCorpusFiles,
  type ExpectedCall,
  type ExpectedFile,
  type ExpectedTurn,
  type KnownCorpusDeviations,
} from '@agent-checkpoint/core/conformance';
import { expect, it } from 'vitest';
import { createGeminiTranscriptReader } from './create-gemini-transcript-reader.ts';

// The public corpus (real Gemini CLI chat files of November 2025 to June 2026, CLI 0.19.4 to 0.23.0 and
// unversioned ones, published by others) through the Gemini reader, turn by turn, against the independent
// count below. It shares no code with the reader on purpose.

const fixtures = join(import.meta.dirname, '../../../fixtures');

/**
 * Turns where today's reader differs from the independent count (see the suite for the key format).
 * Each entry is a reader bug to fix, not an expectation: the suite fails once an entry matches.
 */
const KNOWN_DEVIATIONS: KnownCorpusDeviations = {};

describePublicCorpusConformance({
  reader: createGeminiTranscriptReader(),
  agent: 'gemini',
  files: publicCorpusFiles(fixtures, 'gemini'),
  expectFile: expectGeminiFile,
  knownDeviations: KNOWN_DEVIATIONS,
  // A single-document chat file is JSON as a whole: larger than the cap it cannot be read from its
  // tail, and the reader must say so (the caller then falls back to the file-based checkpoint).
  unreadable: (turn, maxBytes) => (turn.snapshot.length > maxBytes ? 'legacy-too-large' : undefined),
});

/**
 * Files the publisher re-serialised before publishing (Python's `json.dump(…, indent=2)`, which escapes
 * every non-ASCII character as `\uXXXX`; the CLI writes them as UTF-8). The data is the CLI's; only that
 * escaping differs, which the check below pins down exactly instead of skipping the file.
 */
const ESCAPED_BY_PUBLISHER = new Set([
  'gemini/unknown-2025-11/public/m-gemini-session-2025-11-19T20-45-42f4bde7.json',
  'gemini/0.19.4/public/m-gemini-session-2025-12-10T03-48-c8424283.json',
  'gemini/0.20.0/public/m-gemini-session-2025-12-12T21-46-7c761c30.json',
  'gemini/0.20.1/public/m-gemini-session-2025-12-12T23-27-30606aa5.json',
]);

it('re-serialises a whole chat file byte for byte (so the per-turn snapshots are what the CLI would write)', () => {
  for (const { entry, path } of publicCorpusFiles(fixtures, 'gemini')) {
    const bytes = new Uint8Array(readFileSync(path));
    const text = Buffer.from(bytes).toString('utf8');
    const written = Buffer.from(snapshotOf(JSON.parse(text) as Record<string, unknown>, Number.MAX_SAFE_INTEGER, trailerOf(text))).toString('utf8');
    const expected = ESCAPED_BY_PUBLISHER.has(entry.file) ? escapeNonAscii(written) : written;
    expect(expected === text, entry.file).toBe(true);
  }
});

it('lists only corpus files, and only files that need it, as escaped by their publisher', () => {
  const files = new Map(publicCorpusFiles(fixtures, 'gemini').map(({ entry, path }) => [entry.file, path]));
  for (const file of ESCAPED_BY_PUBLISHER) {
    const path = files.get(file);
    expect(path, file).toBeDefined();
    expect(/\\u[0-9a-f]{4}/.test(readFileSync(path ?? '', 'utf8')), file).toBe(true);
  }
});

/** What Python's json.dump makes of the CLI's UTF-8 text: every non-ASCII UTF-16 unit as `\uXXXX`. */
function escapeNonAscii(text: string): string {
  return text.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const EDIT_TOOLS = new Set(['write_file', 'replace', 'edit', 'smart_edit']);

/**
 * The independent count. Version: the running version the CLI names in its update notice, if any. Turns: `user` messages. Each turn's snapshot is the chat document with the
 * messages up to the next user message, written the way Gemini CLI writes it (`JSON.stringify(…, null,
 * 2)`, plus the file's own trailing newline if it has one). Calls: the `toolCalls` of `gemini` messages. Exit status of `run_shell_command`: the `Exit
 * Code: N` line of its output, 0 for a successful call whose output has none. Edited paths: the
 * `file_path` of write_file / replace / edit.
 */
function expectGeminiFile(bytes: Uint8Array): ExpectedFile {
  const original = Buffer.from(bytes).toString('utf8');
  const doc = JSON.parse(original) as Record<string, unknown>;
  const messages = Array.isArray(doc['messages']) ? doc['messages'].filter(isRecord) : [];
  const starts = messages.flatMap((message, index) => (message['type'] === 'user' ? [index] : []));
  const turns: ExpectedTurn[] = starts.map((start, index) => {
    const end = starts[index + 1] ?? messages.length;
    const snapshot = snapshotOf(doc, end, trailerOf(original));
    const text = Buffer.from(snapshot).toString('utf8');
    const offsetOf = (id: unknown): number => {
      const at = typeof id === 'string' ? text.indexOf(`"id": ${JSON.stringify(id)}`) : -1;
      return at === -1 ? 0 : Buffer.byteLength(text.slice(0, at));
    };
    return {
      label: `turn ${index} (message ${start})`,
      snapshot,
      startOffset: offsetOf(messages[start]?.['id']),
      calls: messages.slice(start, end).flatMap((message) => callsOf(message, offsetOf)),
    };
  });
  const cliVersion = versionOf(messages);
  return { ...(cliVersion !== undefined ? { cliVersion } : {}), turns };
}

/**
 * The chat format has no version field, but the CLI records its own version when an update is
 * available: an `info` message "Gemini CLI update available! <running> → <latest>".
 */
function versionOf(messages: readonly Record<string, unknown>[]): string | undefined {
  for (const message of messages) {
    if (message['type'] !== 'info' || typeof message['content'] !== 'string') continue;
    const found = /^Gemini CLI update available! (\d+\.\d+\.\d+\S*) \u2192 /.exec(message['content']);
    if (found) return found[1];
  }
  return undefined;
}

function snapshotOf(doc: Record<string, unknown>, messageCount: number, trailer: string): Uint8Array {
  const messages = Array.isArray(doc['messages']) ? doc['messages'] : [];
  return new Uint8Array(Buffer.from(`${JSON.stringify({ ...doc, messages: messages.slice(0, messageCount) }, null, 2)}${trailer}`));
}

/** What the CLI writes after the document (later versions end the file with a newline). */
function trailerOf(text: string): string {
  return text.slice(text.trimEnd().length);
}

function callsOf(message: Record<string, unknown>, offsetOf: (id: unknown) => number): ExpectedCall[] {
  if (message['type'] !== 'gemini' || !Array.isArray(message['toolCalls'])) return [];
  return message['toolCalls'].filter(isRecord).map((call) => {
    const id = typeof call['id'] === 'string' ? call['id'] : undefined;
    const name = typeof call['name'] === 'string' ? call['name'] : '';
    const args = isRecord(call['args']) ? call['args'] : {};
    const path = args['file_path'] ?? args['absolute_path'];
    const editedPaths = EDIT_TOOLS.has(name) && typeof path === 'string' ? [path] : [];
    const base = { ...(id !== undefined ? { id } : {}), editedPaths, offset: offsetOf(id) };
    return name === 'run_shell_command' ? { ...base, shell: { exitCode: shellExit(call) } } : base;
  });
}

function shellExit(call: Record<string, unknown>): number | undefined {
  const outputs = (Array.isArray(call['result']) ? call['result'] : []).flatMap((part) => {
    const response = isRecord(part) && isRecord(part['functionResponse']) ? part['functionResponse']['response'] : undefined;
    return isRecord(response) && typeof response['output'] === 'string' ? [response['output']] : [];
  });
  const code = outputs.map((output) => /^Exit Code: (-?\d+)$/m.exec(output)?.[1]).find((found) => found !== undefined);
  if (code !== undefined) return Number(code);
  return call['status'] === 'success' ? 0 : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
