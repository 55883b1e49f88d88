import { join } from 'node:path';
import {
  describePublicCorpusConformance,
  publicCorpusFiles,
  type ExpectedCall,
  type ExpectedFile,
  type ExpectedTurn,
  type KnownCorpusDeviations,
} from '@agent-checkpoint/core/conformance';
import { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';

// The public corpus (real Claude Code 2.0.64-2.1.152 transcripts published by others) through the
// Claude reader, turn by turn, against the independent count below. It shares no code with the reader
// on purpose.

const fixtures = join(import.meta.dirname, '../../../fixtures');

/**
 * Turns where today's reader differs from the independent count (see the suite for the key format).
 * Each entry is a reader bug to fix, not an expectation: the suite fails once an entry matches.
 */
const KNOWN_DEVIATIONS: KnownCorpusDeviations = {};

describePublicCorpusConformance({
  reader: createClaudeTranscriptReader(),
  agent: 'claude',
  files: publicCorpusFiles(fixtures, 'claude'),
  expectFile: expectClaudeFile,
  knownDeviations: KNOWN_DEVIATIONS,
});

interface Entry {
  readonly offset: number;
  readonly value: Record<string, unknown>;
}

const EDIT_TOOLS: Readonly<Record<string, string>> = { Edit: 'file_path', MultiEdit: 'file_path', Write: 'file_path', NotebookEdit: 'notebook_path' };

/** Texts of user entries that Claude writes itself and that open no turn. */
const NOT_A_PROMPT = ['<local-command-', '<bash-input>', '<bash-stdout>', '<bash-stderr>', '[Request interrupted by user', 'Stop hook feedback:'];

/**
 * The independent count. Turns: user entries of the main chain with text and no tool result that are
 * not meta, not a compaction summary, not Claude's own echo or interrupt marker — a slash command
 * or skill (`<command-name>`) the model answers opens a turn (issue 11 §5); a local one does not. Calls: every `tool_use` block of an assistant entry,
 * once per id. Exit status of `Bash`: 0 for a result that is not an error, the `Exit code N` line of an
 * error result, none while it runs or when it runs in the background. Edited paths: the file argument of
 * Edit, MultiEdit, Write and NotebookEdit.
 */
function expectClaudeFile(bytes: Uint8Array): ExpectedFile {
  const entries = parseEntries(bytes);
  const version = entries.map((e) => e.value['version']).find((v): v is string => typeof v === 'string');
  const starts = entries.filter((entry, index) => isPrompt(entry.value) && (!isCommand(entry.value) || modelAnswers(entries, index))).map((entry) => entry.offset);
  const turns: ExpectedTurn[] = starts.map((startOffset, index) => {
    const endOffset = starts[index + 1] ?? bytes.length;
    const inTurn = entries.filter((entry) => entry.offset >= startOffset && entry.offset < endOffset);
    const cwd = entries.filter((entry) => entry.offset < endOffset).reverse().map((e) => e.value['cwd']).find((c): c is string => typeof c === 'string');
    return {
      label: `turn ${index} (byte ${startOffset})`,
      snapshot: bytes.subarray(0, endOffset),
      startOffset,
      ...(cwd !== undefined ? { cwd } : {}),
      calls: callsOf(inTurn),
    };
  });
  return { ...(version !== undefined ? { cliVersion: version } : {}), turns };
}

function parseEntries(bytes: Uint8Array): Entry[] {
  const buffer = Buffer.from(bytes);
  const out: Entry[] = [];
  let offset = 0;
  while (offset < buffer.length) {
    const newline = buffer.indexOf(0x0a, offset);
    const end = newline === -1 ? buffer.length : newline + 1;
    try {
      const value = JSON.parse(buffer.subarray(offset, end).toString('utf8')) as unknown;
      if (isRecord(value)) out.push({ offset, value });
    } catch {
      // not a JSON line
    }
    offset = end;
  }
  return out;
}

/** A slash command or skill invocation (`<command-name>…`). */
function isCommand(entry: Record<string, unknown>): boolean {
  const content = isRecord(entry['message']) ? entry['message']['content'] : undefined;
  const text = typeof content === 'string' ? content : Array.isArray(content) ? JSON.stringify(content) : '';
  return /^\s*(?:\[\{"type":"text","text":")?<command-(?:name|message)>/.test(text);
}

/**
 * Whether the model answers the user entry at `index` (an assistant entry comes before the next user
 * text). A local command (`/exit`, `/mcp`, `/model`) gets only `<local-command-stdout>`: no model turn,
 * no Stop hook, so it is no turn of its own.
 */
function modelAnswers(entries: readonly Entry[], index: number): boolean {
  for (const { value } of entries.slice(index + 1)) {
    // Claude's own `<synthetic>` "No response requested." after a local command is no model answer.
    if (value['type'] === 'assistant' && !(isRecord(value['message']) && value['message']['model'] === '<synthetic>')) return true;
    if (value['type'] === 'user' && value['isMeta'] !== true && isPrompt(value) && !isCommand(value)) return false;
  }
  return false;
}

function isPrompt(entry: Record<string, unknown>): boolean {
  if (entry['type'] !== 'user' || entry['isSidechain'] === true || entry['isMeta'] === true) return false;
  if (entry['isCompactSummary'] === true || entry['isVisibleInTranscriptOnly'] === true) return false;
  const content = isRecord(entry['message']) ? entry['message']['content'] : undefined;
  let text: string;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    if (content.some((block) => isRecord(block) && block['type'] === 'tool_result')) return false;
    text = content.map((block) => (isRecord(block) && block['type'] === 'text' && typeof block['text'] === 'string' ? block['text'] : '')).join('');
  } else return false;
  const trimmed = text.trimStart();
  return trimmed.length > 0 && !NOT_A_PROMPT.some((prefix) => trimmed.startsWith(prefix));
}

function callsOf(entries: readonly Entry[]): ExpectedCall[] {
  const results = new Map<string, { isError: boolean; text: string }>();
  for (const { value } of entries) {
    const content = value['type'] === 'user' && isRecord(value['message']) ? value['message']['content'] : undefined;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (!isRecord(block) || block['type'] !== 'tool_result' || typeof block['tool_use_id'] !== 'string') continue;
      results.set(block['tool_use_id'], { isError: block['is_error'] === true, text: resultText(block['content']) });
    }
  }
  const calls: ExpectedCall[] = [];
  const seen = new Set<string>();
  for (const { offset, value } of entries) {
    const content = value['type'] === 'assistant' && isRecord(value['message']) ? value['message']['content'] : undefined;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (!isRecord(block) || block['type'] !== 'tool_use' || typeof block['id'] !== 'string' || seen.has(block['id'])) continue;
      seen.add(block['id']);
      const name = typeof block['name'] === 'string' ? block['name'] : '';
      const input = isRecord(block['input']) ? block['input'] : {};
      const pathKey = EDIT_TOOLS[name];
      const path = pathKey === undefined ? undefined : input[pathKey];
      const editedPaths = typeof path === 'string' && path.length > 0 ? [path] : [];
      if (name === 'Bash') {
        calls.push({ id: block['id'], shell: { exitCode: bashExit(results.get(block['id']), input['run_in_background'] === true) }, editedPaths, offset });
      } else {
        calls.push({ id: block['id'], editedPaths, offset });
      }
    }
  }
  return calls;
}

function bashExit(result: { isError: boolean; text: string } | undefined, background: boolean): number | undefined {
  if (result === undefined || background) return undefined;
  if (!result.isError) return 0;
  const found = /^\s*Exit code (-?\d+)/.exec(result.text);
  return found?.[1] === undefined ? undefined : Number(found[1]);
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((block) => (isRecord(block) && typeof block['text'] === 'string' ? block['text'] : '')).join('\n');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
