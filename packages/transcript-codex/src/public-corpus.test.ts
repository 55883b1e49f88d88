import { join } from 'node:path';
import {
  describePublicCorpusConformance,
  publicCorpusFiles,
  type ExpectedCall,
  type ExpectedFile,
  type ExpectedTurn,
  type KnownCorpusDeviations,
} from '@agent-checkpoint/core/conformance';
import { createCodexTranscriptReader } from './create-codex-transcript-reader.ts';

// The public corpus (real rollouts of Codex 0.2x-0.135 published by others) through the Codex reader,
// turn by turn, against the independent count below. It shares no code with the reader on purpose.

const fixtures = join(import.meta.dirname, '../../../fixtures');

/**
 * Turns where today's reader differs from the independent count (see the suite for the key format).
 * Each entry is a reader bug to fix, not an expectation: the suite fails once an entry matches.
 */
const KNOWN_DEVIATIONS: KnownCorpusDeviations = {};

describePublicCorpusConformance({
  reader: createCodexTranscriptReader(),
  agent: 'codex',
  files: publicCorpusFiles(fixtures, 'codex'),
  expectFile: expectCodexFile,
  knownDeviations: KNOWN_DEVIATIONS,
});

interface Line {
  readonly offset: number;
  readonly end: number;
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

const SHELL_NAMES = new Set(['shell', 'shell_command', 'exec_command', 'container.exec', 'local_shell']);
const BARE_ITEM_TYPES = new Set(['message', 'reasoning', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'local_shell_call', 'web_search_call']);
/** User messages Codex writes itself at the start of a session (instructions, environment). */
const CONTEXT_MESSAGE = /^\s*(?:<user_instructions>|<environment_context>|# AGENTS\.md instructions)/;

/**
 * The independent count. Turns: `task_started` events where the rollout has them, else each user
 * prompt (the `user_message` event, together with the user messages written just before it), else
 * (0.2x rollouts, bare items and no events) each user message item that is not Codex's own context. Calls:
 * `function_call`, `custom_tool_call`, `local_shell_call`, `web_search_call` items. Exit status: the
 * `exec_command_end` event, else the output's JSON metadata or its `Exit code:` / `Process exited with
 * code` line, following `write_stdin` polls of a command still running. Edited paths: the file headers
 * of every patch (apply_patch tool, or a shell command carrying the patch).
 */
function expectCodexFile(bytes: Uint8Array): ExpectedFile {
  const lines = splitLines(bytes);
  let cliVersion: string | undefined;
  for (const line of lines) {
    if (line.type === 'session_meta' && typeof line.payload['cli_version'] === 'string') cliVersion ??= line.payload['cli_version'];
  }
  const starts = turnStarts(lines);
  const turns: ExpectedTurn[] = starts.map((start, index) => {
    const next = starts[index + 1];
    const endOffset = next === undefined ? bytes.length : (lines[next]?.offset ?? bytes.length);
    const startOffset = lines[start]?.offset ?? 0;
    const inTurn = lines.filter((line) => line.offset >= startOffset && line.offset < endOffset);
    const cwd = lastCwd(lines.filter((line) => line.offset < endOffset));
    const turnId = lines[start]?.payload['turn_id'];
    return {
      label: `turn ${index} (line ${start + 1})`,
      snapshot: bytes.subarray(0, endOffset),
      startOffset,
      ...(cwd !== undefined ? { cwd } : {}),
      ...(typeof turnId === 'string' ? { hint: { turnId } } : {}),
      calls: callsOf(inTurn),
    };
  });
  return { ...(cliVersion !== undefined ? { cliVersion } : {}), turns };
}

function splitLines(bytes: Uint8Array): Line[] {
  const out: Line[] = [];
  let offset = 0;
  const text = Buffer.from(bytes);
  while (offset < text.length) {
    const newline = text.indexOf(0x0a, offset);
    const end = newline === -1 ? text.length : newline + 1;
    try {
      const value = JSON.parse(text.subarray(offset, end).toString('utf8')) as unknown;
      if (isRecord(value) && typeof value['type'] === 'string') {
        // Rollouts before session_meta (Codex 0.2x) write response items bare, without the wrapper.
        const bare = !('payload' in value) && BARE_ITEM_TYPES.has(value['type']);
        out.push({ offset, end, type: bare ? 'response_item' : value['type'], payload: bare ? value : isRecord(value['payload']) ? value['payload'] : {} });
      }
    } catch {
      // not a JSON line: not part of any count
    }
    offset = end;
  }
  return out;
}

function turnStarts(lines: readonly Line[]): number[] {
  const taskStarted = lines.flatMap((line, index) => (line.type === 'event_msg' && line.payload['type'] === 'task_started' ? [index] : []));
  if (taskStarted.length > 0) return taskStarted;
  if (!lines.some((line) => line.type === 'event_msg' && line.payload['type'] === 'user_message')) {
    // No events at all (Codex 0.2x): each user message item that is not Codex's own context is a prompt.
    return lines.flatMap((line, index) => (isUserMessageItem(line) && !CONTEXT_MESSAGE.test(messageText(line.payload)) ? [index] : []));
  }
  return lines.flatMap((line, index) => {
    if (line.type !== 'event_msg' || line.payload['type'] !== 'user_message') return [];
    let start = index;
    while (start > 0 && isUserMessageItem(lines[start - 1])) start -= 1;
    return [start];
  });
}

function isUserMessageItem(line: Line | undefined): boolean {
  return line?.type === 'response_item' && line.payload['type'] === 'message' && line.payload['role'] === 'user';
}

function messageText(payload: Record<string, unknown>): string {
  const content = payload['content'];
  return Array.isArray(content) ? content.map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('') : '';
}

function lastCwd(lines: readonly Line[]): string | undefined {
  let cwd: string | undefined;
  for (const line of lines) {
    if ((line.type === 'turn_context' || line.type === 'session_meta') && typeof line.payload['cwd'] === 'string') cwd = line.payload['cwd'];
  }
  return cwd;
}

function callsOf(lines: readonly Line[]): ExpectedCall[] {
  const outputs = new Map<string, string>();
  const exitEvents = new Map<string, number>();
  for (const line of lines) {
    const p = line.payload;
    const id = typeof p['call_id'] === 'string' ? p['call_id'] : undefined;
    if (id === undefined) continue;
    if (line.type === 'response_item' && (p['type'] === 'function_call_output' || p['type'] === 'custom_tool_call_output')) {
      outputs.set(id, outputText(p['output']));
    }
    if (line.type === 'event_msg' && p['type'] === 'exec_command_end' && typeof p['exit_code'] === 'number') exitEvents.set(id, p['exit_code']);
  }
  const polls = pollsBySession(lines, outputs);
  const calls: ExpectedCall[] = [];
  for (const line of lines) {
    if (line.type !== 'response_item') continue;
    const p = line.payload;
    const kind = p['type'];
    const id = typeof p['call_id'] === 'string' ? p['call_id'] : undefined;
    if (kind === 'web_search_call') {
      calls.push({ ...(id !== undefined ? { id } : {}), editedPaths: [], offset: line.offset });
      continue;
    }
    if (kind !== 'function_call' && kind !== 'custom_tool_call' && kind !== 'local_shell_call') continue;
    const name = kind === 'local_shell_call' ? 'local_shell' : normaliseName(p['name']);
    const input = kind === 'custom_tool_call' ? p['input'] : kind === 'local_shell_call' ? actionCommand(p['action']) : parseArguments(p['arguments']);
    const patch = patchText(name, input);
    if (patch !== undefined) {
      calls.push({ ...(id !== undefined ? { id } : {}), editedPaths: patchPaths(patch), offset: line.offset });
      continue;
    }
    if (SHELL_NAMES.has(name)) {
      const output = id === undefined ? undefined : outputs.get(id);
      const exitCode = (id === undefined ? undefined : exitEvents.get(id)) ?? exitFromOutput(output) ?? exitFromPolls(output, polls);
      calls.push({ ...(id !== undefined ? { id } : {}), shell: { exitCode }, editedPaths: [], offset: line.offset });
      continue;
    }
    calls.push({ ...(id !== undefined ? { id } : {}), editedPaths: [], offset: line.offset });
  }
  return calls;
}

function normaliseName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return name.startsWith('functions.') ? name.slice('functions.'.length) : name;
}

function parseArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function actionCommand(action: unknown): unknown {
  return isRecord(action) ? { command: action['command'] } : undefined;
}

/** The patch a call applies: the apply_patch tool's input, or a shell command that carries one. */
function patchText(name: string, input: unknown): string | undefined {
  if (name === 'apply_patch') return typeof input === 'string' ? input : isRecord(input) && typeof input['input'] === 'string' ? input['input'] : '';
  if (!SHELL_NAMES.has(name) || !isRecord(input)) return undefined;
  const command = input['command'] ?? input['cmd'];
  const text = Array.isArray(command) ? command.filter((part): part is string => typeof part === 'string').join('\n') : typeof command === 'string' ? command : '';
  return text.includes('*** Begin Patch') ? text : undefined;
}

function patchPaths(patch: string): string[] {
  const paths: string[] = [];
  for (const match of patch.matchAll(/^\*\*\* (?:(?:Add|Update|Delete) File|Move to): (.+)$/gm)) {
    const path = match[1]?.trim();
    if (path && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

function outputText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isRecord(value) && typeof value['content'] === 'string') return value['content'];
  return JSON.stringify(value ?? '');
}

function exitFromOutput(output: string | undefined): number | undefined {
  if (output === undefined) return undefined;
  const json = parseArguments(output);
  if (isRecord(json) && isRecord(json['metadata']) && typeof json['metadata']['exit_code'] === 'number') return json['metadata']['exit_code'];
  const found = /^Exit code: (-?\d+)$/m.exec(output) ?? /Process exited with code (-?\d+)/.exec(output);
  return found?.[1] === undefined ? undefined : Number(found[1]);
}

/** `write_stdin` polls of a still-running exec session: session id → the outputs of its polls. */
function pollsBySession(lines: readonly Line[], outputs: ReadonlyMap<string, string>): Map<string, string[]> {
  const polls = new Map<string, string[]>();
  for (const line of lines) {
    const p = line.payload;
    if (line.type !== 'response_item' || p['type'] !== 'function_call' || normaliseName(p['name']) !== 'write_stdin') continue;
    const args = parseArguments(p['arguments']);
    const session = isRecord(args) ? String(args['session_id'] ?? '') : '';
    const output = typeof p['call_id'] === 'string' ? outputs.get(p['call_id']) : undefined;
    if (session === '' || output === undefined) continue;
    polls.set(session, [...(polls.get(session) ?? []), output]);
  }
  return polls;
}

function exitFromPolls(output: string | undefined, polls: ReadonlyMap<string, readonly string[]>): number | undefined {
  const session = output === undefined ? undefined : /Process running with session ID (\d+)/.exec(output)?.[1];
  if (session === undefined) return undefined;
  for (const poll of polls.get(session) ?? []) {
    const code = exitFromOutput(poll);
    if (code !== undefined) return code;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
