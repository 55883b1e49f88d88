import { isRecord } from './codex-line-fields.ts';
/** What a model-facing tool output says about how the call ended. */
export interface ParsedToolOutput {
  /** The output body, without Codex's `Chunk ID: … Output:` header. */
  readonly body: string;
  readonly exitCode?: number;
  /** `aborted by user`: interrupted before an exit code was known. */
  readonly aborted: boolean;
  /** The tool reported failure without an exit code. */
  readonly failed: boolean;
  /** `Process running with session ID N`: the command is still running. */
  readonly runningSessionId?: string;
}

const EXIT_LINE = /^(?:Process exited with code|Exit code:)\s*(-?\d+)\s*$/;
const RUNNING_LINE = /^Process running with session ID\s+(\S+)\s*$/;
const HEADER_LINE = /^(?:Chunk ID|Wall time|Original token count|Total output lines|Duration):\s.*$/;
/** Outputs Codex writes when a tool fails before producing an exit code. */
const FAILURE_TEXT =
  /^(?:apply_patch verification failed|execution error|failed to parse function arguments|exec command rejected|patch rejected|invalid patch|err:|Script failed(?:\r?\n|$))/i;

/**
 * Read a `function_call_output` / `custom_tool_call_output` `output` value.
 *
 * Forms seen across versions:
 * - 0.169 unified exec: `Chunk ID: …\nWall time: …\nProcess exited with code N\nOriginal token count: …\nOutput:\n<body>`;
 * - 0.169 apply_patch: `Exit code: N\nWall time: …\nOutput:\n<body>`;
 * - interrupted: `Wall time: 1.6 seconds\naborted by user` (no exit code);
 * - still running: `… Process running with session ID N …` (the exit code arrives with a later `write_stdin`);
 * - older versions: a JSON string `{"output":"…","metadata":{"exit_code":N,"duration_seconds":…}}`;
 * - content-item arrays `[{"type":"input_text","text":"…"}]`;
 * - a code-mode cell: `Script completed|failed|running with cell ID N\nWall time …\nOutput:\n…`
 *   (kept whole as the body; `Script failed` marks the cell as failed).
 *
 * The exit code is read from the header only, never from the body: a test runner printing
 * "Exit code: 0" inside its output must not decide the outcome.
 */
export function parseToolOutput(output: unknown): ParsedToolOutput {
  if (isRecord(output)) {
    const text = contentText(output['content']) ?? (typeof output['output'] === 'string' ? output['output'] : '');
    const parsed = parseText(text);
    return output['success'] === false ? { ...parsed, failed: true } : parsed;
  }
  const text = typeof output === 'string' ? output : (contentText(output) ?? '');
  const json = parseMetadataJson(text);
  if (json) return json;
  return parseText(text);
}

function parseText(text: string): ParsedToolOutput {
  const lines = text.split('\n');
  let exitCode: number | undefined;
  let runningSessionId: string | undefined;
  let aborted = false;
  let bodyStart = 0;
  let sawHeader = false;
  for (let i = 0; i < lines.length; i += 1) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    if (line === 'Output:' && sawHeader) {
      bodyStart = i + 1;
      break;
    }
    const exit = EXIT_LINE.exec(line);
    const running = RUNNING_LINE.exec(line);
    if (exit?.[1] !== undefined) exitCode = Number.parseInt(exit[1], 10);
    else if (running?.[1] !== undefined) runningSessionId = running[1];
    else if (line === 'aborted by user') aborted = true;
    else if (!HEADER_LINE.test(line)) {
      // Not a header line: the text has no (more) header; everything from the first unknown line is body.
      bodyStart = sawHeader ? i : 0;
      break;
    }
    sawHeader = true;
    bodyStart = i + 1;
  }
  const body = lines.slice(bodyStart).join('\n');
  const failed = exitCode === undefined && !aborted && (FAILURE_TEXT.test(text.trimStart()) || /tool call error/i.test(text));
  return {
    body: sawHeader ? body : text,
    ...(exitCode !== undefined ? { exitCode } : {}),
    aborted,
    failed,
    ...(runningSessionId !== undefined ? { runningSessionId } : {}),
  };
}

/** Older versions: `{"output":"…","metadata":{"exit_code":N}}` serialized as a string. */
function parseMetadataJson(text: string): ParsedToolOutput | undefined {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || typeof value['output'] !== 'string') return undefined;
  const metadata = value['metadata'];
  const exit = isRecord(metadata) ? metadata['exit_code'] : undefined;
  const body = value['output'];
  return {
    body,
    ...(typeof exit === 'number' && Number.isInteger(exit) ? { exitCode: exit } : {}),
    aborted: false,
    failed: value['success'] === false,
  };
}

/** Text of a content-item array (`[{type:'input_text', text}]`), or undefined when it is not one. */
function contentText(value: unknown): string | undefined {
  if (!Array.isArray(value)) return typeof value === 'string' ? value : undefined;
  const texts = value.flatMap((item) => (isRecord(item) && typeof item['text'] === 'string' ? [item['text']] : []));
  return texts.join('\n');
}


