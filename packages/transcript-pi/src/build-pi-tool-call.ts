import { makeOutputExcerpt, type ToolCall, type ToolKind, type ToolOutcome } from '@agent-checkpoint/core';
import type { PiMessage, PiToolCall } from './parse-pi-entry.ts';

type PiToolResult = Extract<PiMessage, { role: 'toolResult' }>;

/**
 * The unified kind of a Pi tool (pi-coding-agent 0.73.1 `dist/core/tools/`: `bash`, `read`, `edit`,
 * `write`, `grep`, `find`, `ls`). Extension tools keep their name with kind `other`.
 */
export function mapPiToolName(name: string): ToolKind {
  switch (name) {
    case 'bash':
      return 'shell';
    case 'read':
      return 'read';
    case 'edit':
      return 'edit';
    case 'write':
      return 'write';
    case 'grep':
    case 'find':
    case 'ls':
      return 'search';
    default:
      return 'other';
  }
}

/** The trailer Pi's bash tool appends to a failed command's output (`appendStatus`), last line of the text. */
const EXIT_TRAILER = /(?:^|\n)Command exited with code (-?\d+)\s*$/;

/**
 * One `toolCall` block, paired with its `toolResult` by id. Outcome: no result → pending; a result
 * with `isError` → error (Pi's bash tool fails on a non-zero exit, a timeout or an abort, and says
 * `Command exited with code N` for the first); else success, exit code 0 for `bash`.
 */
export function buildPiToolCall(call: PiToolCall, result: PiToolResult | undefined, timestamp: string | undefined): ToolCall {
  const kind = mapPiToolName(call.name);
  const outcome: ToolOutcome = result === undefined ? 'pending' : result.isError ? 'error' : 'success';
  const at = timestamp ?? result?.timestamp;
  const base = {
    id: call.id,
    rawName: call.name,
    input: call.arguments,
    paths: kind === 'read' || kind === 'edit' || kind === 'write' ? pathsOf(call.arguments) : [],
    outcome,
    ...(result !== undefined && result.text.length > 0 ? { output: makeOutputExcerpt(result.text) } : {}),
    ...(at !== undefined ? { timestamp: at } : {}),
  };
  if (kind !== 'shell') return { ...base, kind };
  const command = typeof call.arguments['command'] === 'string' ? call.arguments['command'] : '';
  const exitCode = result === undefined ? undefined : result.isError ? exitCodeOf(result.text) : 0;
  return { ...base, kind, command, ...(exitCode !== undefined ? { exitCode } : {}) };
}

function exitCodeOf(text: string): number | undefined {
  const match = EXIT_TRAILER.exec(text);
  if (match === null) return undefined;
  const code = Number(match[1]);
  // An error whose trailer says 0 is still an error: no exit code rather than a contradiction.
  return Number.isSafeInteger(code) && code !== 0 ? code : undefined;
}

/** `path` as the model wrote it (relative to the session cwd, or absolute). */
function pathsOf(args: Readonly<Record<string, unknown>>): string[] {
  const path = args['path'];
  return typeof path === 'string' && path.length > 0 ? [path] : [];
}
