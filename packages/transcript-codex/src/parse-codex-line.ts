import { P, match } from 'ts-pattern';
import type { CodexRecord, ItemToolRecord } from './codex-record.ts';
import { parseHookPromptText } from './classify-user-text.ts';
import { asStringArray, commandFromArgv, commandFromValue } from './command-text.ts';
import { canonicalCodexToolName } from './map-codex-tool-name.ts';
import { patchFromShellCommand } from './patch-paths.ts';
import { isCodexRolloutLine, isRecord, num, obj, opt, rolloutLineParts, str, type Obj, type RecordBaseFields } from './codex-line-fields.ts';
import { threadSettingsRecord, tokenCountRecord, tokenUsageRecord, turnContextRecord, turnStartRecord } from './parse-codex-usage-line.ts';
import { parseToolOutput } from './parse-tool-output.ts';

export { isCodexRolloutLine } from './codex-line-fields.ts';

/**
 * Extract the normalized records of one rollout line. Unknown line types, unknown payload types and
 * missing or mistyped fields yield no record (never an exception): the format is "not a guaranteed
 * surface" (openai/codex#45309), so the parser takes what it recognizes and ignores the rest.
 */
export function parseCodexLine(entry: unknown, offset: number): CodexRecord[] {
  if (!isCodexRolloutLine(entry)) return [];
  const { lineType, payload, payloadType, base } = rolloutLineParts(entry as Obj, offset);

  return match([lineType, payloadType] as const)
    .with(['session_meta', P._], () => [
      { type: 'session-meta' as const, ...base, ...opt('cwd', str(payload, 'cwd')), ...opt('cliVersion', str(payload, 'cli_version')) },
    ])
    .with(['turn_context', P._], () => [turnContextRecord(payload, base)])
    .with(['token_usage_record', P._], () => tokenUsageRecord(payload, base))
    .with(['event_msg', P._], () => parseEventMsg(payload, payloadType, base))
    .with(['response_item', P._], () => parseResponseItem(payload, payloadType, base))
    .otherwise(() => []);
}

type Base = RecordBaseFields;

function parseEventMsg(payload: Obj, payloadType: string, base: Base): CodexRecord[] {
  const turn = opt('turnId', str(payload, 'turn_id'));
  return match(payloadType)
    .with(P.union('task_started', 'turn_started'), () => [turnStartRecord(payload, base)])
    .with(P.union('task_complete', 'turn_complete', 'turn_aborted'), (kind) => [
      {
        type: 'turn-end' as const,
        ...base,
        ...turn,
        how: kind === 'turn_aborted' ? ('aborted' as const) : ('complete' as const),
        ...opt('lastAgentMessage', str(payload, 'last_agent_message')),
      },
    ])
    .with('thread_settings_applied', () => threadSettingsRecord(payload, base))
    .with('user_message', () => {
      const message = str(payload, 'message');
      if (message === undefined) return [];
      // Some older versions tagged injected context with `kind` (`user_instructions`, `environment_context`).
      const kind = str(payload, 'kind');
      const provenance = kind === undefined || kind === 'plain' ? [] : [kind];
      const hook = parseHookPromptText(message);
      if (hook) return [{ type: 'hook-prompt' as const, source: 'event' as const, ...base, ...turn, texts: hook }];
      return [{ type: 'user-text' as const, source: 'event' as const, ...base, ...turn, text: message, provenance }];
    })
    .with('agent_message', () => {
      const message = str(payload, 'message');
      return message === undefined ? [] : [{ type: 'assistant-text' as const, source: 'event' as const, ...base, ...turn, text: message }];
    })
    .with('item_completed', () => {
      const item = obj(payload, 'item');
      return item ? parseTurnItem(item, { ...base, ...turn }) : [];
    })
    .with('token_count', () => tokenCountRecord(payload, base))
    .with('exec_command_end', () => {
      const callId = str(payload, 'call_id');
      if (!callId) return [];
      const argv = asStringArray(payload['command']);
      const aggregated = str(payload, 'aggregated_output');
      const output = aggregated || joinOutput(str(payload, 'stdout'), str(payload, 'stderr'));
      return [
        {
          type: 'command-result' as const,
          rawName: 'exec_command_end' as const,
          ...base,
          ...turn,
          callId,
          ...opt('argv', argv),
          ...opt('command', argv ? commandFromArgv(argv) : str(payload, 'command')),
          ...opt('exitCode', int(payload, 'exit_code')),
          ...opt('status', str(payload, 'status')),
          ...opt('output', output),
          ...opt('processId', idString(payload['process_id'])),
          ...opt('origin', str(payload, 'source')),
        },
      ];
    })
    .with('patch_apply_end', () => {
      const callId = str(payload, 'call_id');
      if (!callId) return [];
      const success = payload['success'];
      return [
        {
          type: 'patch-result' as const,
          rawName: 'patch_apply_end' as const,
          ...base,
          ...turn,
          callId,
          paths: changePaths(payload['changes']),
          ...opt('status', str(payload, 'status')),
          ...opt('success', typeof success === 'boolean' ? success : undefined),
          ...opt('output', joinOutput(str(payload, 'stdout'), str(payload, 'stderr'))),
        },
      ];
    })
    .with('mcp_tool_call_end', () => {
      const callId = str(payload, 'call_id');
      const invocation = obj(payload, 'invocation');
      if (!callId || !invocation) return [];
      const result = payload['result'];
      const ok = isRecord(result) ? obj(result, 'Ok') : undefined;
      const failed = (isRecord(result) && result['Err'] !== undefined) || ok?.['isError'] === true || ok?.['is_error'] === true;
      return [
        itemTool(base, turn, callId, mcpName(str(invocation, 'server'), str(invocation, 'tool')), {
          input: objectInput(invocation['arguments']),
          outcome: failed ? 'error' : 'success',
        }),
      ];
    })
    .with('web_search_end', () => {
      const callId = str(payload, 'call_id');
      if (!callId) return [];
      return [itemTool(base, turn, callId, 'web_search', { input: pick(payload, ['query', 'action']), outcome: 'success' })];
    })
    .with('view_image_tool_call', () => {
      const callId = str(payload, 'call_id');
      const path = str(payload, 'path');
      if (!callId) return [];
      return [itemTool(base, turn, callId, 'view_image_tool_call', { input: pick(payload, ['path']), outcome: 'success', ...opt('path', path) })];
    })
    .otherwise(() => []);
}

/** 0.169 `item_completed` items (`TurnItem` in codex-rs/protocol/src/items.rs). */
function parseTurnItem(item: Obj, base: Base & { turnId?: string }): CodexRecord[] {
  const id = str(item, 'id');
  return match(str(item, 'type') ?? '')
    .with('UserMessage', () => {
      const content = Array.isArray(item['content']) ? item['content'] : [];
      const text = content.flatMap((part) => (isRecord(part) && typeof part['text'] === 'string' ? [part['text']] : [])).join('');
      return [{ type: 'user-text' as const, source: 'item' as const, ...base, text, provenance: [] }];
    })
    .with('HookPrompt', () => {
      const fragments = Array.isArray(item['fragments']) ? item['fragments'] : [];
      const texts = fragments.flatMap((part) => (isRecord(part) && typeof part['text'] === 'string' ? [part['text']] : []));
      return texts.length > 0 ? [{ type: 'hook-prompt' as const, source: 'item' as const, ...base, texts }] : [];
    })
    .with('AgentMessage', () => {
      const content = Array.isArray(item['content']) ? item['content'] : [];
      const text = content.flatMap((part) => (isRecord(part) && typeof part['text'] === 'string' ? [part['text']] : [])).join('');
      return [{ type: 'assistant-text' as const, source: 'item' as const, ...base, text }];
    })
    .with('CommandExecution', () => {
      if (!id) return [];
      const argv = asStringArray(item['command']);
      return [
        {
          type: 'command-result' as const,
          rawName: 'CommandExecution' as const,
          ...base,
          callId: id,
          ...opt('argv', argv),
          ...opt('command', argv ? commandFromArgv(argv) : str(item, 'command')),
          ...opt('exitCode', int(item, 'exit_code')),
          ...opt('status', str(item, 'status')),
          ...opt('output', str(item, 'aggregated_output') ?? joinOutput(str(item, 'stdout'), str(item, 'stderr'))),
          ...opt('processId', idString(item['process_id'])),
          ...opt('origin', str(item, 'source')),
        },
      ];
    })
    .with('FileChange', () => {
      if (!id) return [];
      return [
        {
          type: 'patch-result' as const,
          rawName: 'FileChange' as const,
          ...base,
          callId: id,
          paths: changePaths(item['changes']),
          ...opt('status', str(item, 'status')),
          ...opt('output', joinOutput(str(item, 'stdout'), str(item, 'stderr'))),
        },
      ];
    })
    .with('McpToolCall', () => {
      if (!id) return [];
      const result = obj(item, 'result');
      const failed = item['error'] != null || result?.['isError'] === true || result?.['is_error'] === true;
      return [
        itemTool(base, {}, id, mcpName(str(item, 'server'), str(item, 'tool')), {
          input: objectInput(item['arguments']),
          outcome: failed || isFailedStatus(str(item, 'status')) ? 'error' : statusOutcome(str(item, 'status')),
        }),
      ];
    })
    .with('DynamicToolCall', () => {
      if (!id) return [];
      const failed = item['success'] === false || isFailedStatus(str(item, 'status'));
      return [
        itemTool(base, {}, id, str(item, 'tool') ?? 'dynamic_tool', {
          input: objectInput(item['arguments']),
          outcome: failed ? 'error' : statusOutcome(str(item, 'status')),
          ...opt('output', str(item, 'error')),
        }),
      ];
    })
    .with('WebSearch', () => {
      if (!id) return [];
      return [itemTool(base, {}, id, 'web_search', { input: pick(item, ['query', 'action']), outcome: 'success' })];
    })
    .with('ImageView', () => {
      if (!id) return [];
      const path = pathFromUri(str(item, 'path'));
      return [itemTool(base, {}, id, 'ImageView', { input: pick(item, ['path']), outcome: 'success', ...opt('path', path) })];
    })
    .with('SubAgentActivity', () => {
      if (!id) return [];
      return [
        {
          type: 'subagent' as const,
          ...base,
          callId: id,
          kind: str(item, 'kind') ?? '',
          ...opt('threadId', str(item, 'agent_thread_id')),
          ...opt('agentPath', str(item, 'agent_path')),
        },
      ];
    })
    .with('CollabAgentToolCall', () => {
      if (!id) return [];
      const receivers = asStringArray(item['receiver_thread_ids']) ?? [];
      return [{ type: 'collab' as const, ...base, callId: id, tool: str(item, 'tool') ?? '', receiverThreadIds: receivers }];
    })
    // Known items that carry no tool call of the turn.
    .with(P.union('Reasoning', 'ContextCompaction', 'EnteredReviewMode', 'Sleep', 'ImageGeneration'), () => [])
    .otherwise((type) => (type === '' ? [] : [{ type: 'unknown-item' as const, ...base, itemType: type }]));
}

function parseResponseItem(payload: Obj, payloadType: string, base: Base): CodexRecord[] {
  const turn = opt('turnId', responseTurnId(payload));
  return match(payloadType)
    .with('message', () => {
      const role = str(payload, 'role');
      const content = Array.isArray(payload['content']) ? payload['content'] : [];
      const text = content.flatMap((part) => (isRecord(part) && typeof part['text'] === 'string' ? [part['text']] : [])).join('\n');
      if (role === 'assistant') return [{ type: 'assistant-text' as const, source: 'response' as const, ...base, ...turn, text }];
      if (role !== 'user') return [];
      const hook = parseHookPromptText(text);
      if (hook) return [{ type: 'hook-prompt' as const, source: 'response' as const, ...base, ...turn, texts: hook }];
      return [{ type: 'user-text' as const, source: 'response' as const, ...base, ...turn, text, provenance: provenanceOf(payload) }];
    })
    .with('function_call', () => {
      const callId = str(payload, 'call_id') ?? str(payload, 'id');
      const name = toolName(payload);
      if (!callId || !name) return [];
      const args = parseArguments(payload['arguments']);
      return [{ type: 'call' as const, ...base, ...turn, callId, rawName: name, input: args, ...callDetails(name, args), ...opt('namespace', str(payload, 'namespace')) }];
    })
    .with('custom_tool_call', () => {
      const callId = str(payload, 'call_id') ?? str(payload, 'id');
      const name = toolName(payload);
      if (!callId || !name) return [];
      const input = typeof payload['input'] === 'string' ? payload['input'] : '';
      return [
        {
          type: 'call' as const,
          ...base,
          ...turn,
          callId,
          rawName: name,
          input: { input },
          ...(name === 'apply_patch' ? { patchText: input } : {}),
        },
      ];
    })
    .with('local_shell_call', () => {
      const callId = str(payload, 'call_id') ?? str(payload, 'id');
      const action = obj(payload, 'action');
      if (!callId || !action) return [];
      const argv = asStringArray(action['command']);
      const command = argv ? commandFromArgv(argv) : undefined;
      const patchText = patchFromShellCommand(argv, command);
      return [
        {
          type: 'call' as const,
          ...base,
          ...turn,
          callId,
          rawName: 'local_shell_call',
          input: action,
          ...opt('command', command),
          ...opt('patchText', patchText),
        },
      ];
    })
    .with(P.union('function_call_output', 'custom_tool_call_output', 'tool_search_output'), () => {
      const callId = str(payload, 'call_id') ?? str(payload, 'id');
      if (!callId) return [];
      const parsed = parseToolOutput(payload['output'] ?? payload['tools'] ?? '');
      const failed = parsed.failed || payload['success'] === false;
      return [
        {
          type: 'call-output' as const,
          ...base,
          ...turn,
          callId,
          body: parsed.body,
          ...opt('exitCode', parsed.exitCode),
          aborted: parsed.aborted,
          failed,
          ...opt('runningSessionId', parsed.runningSessionId),
        },
      ];
    })
    .with('tool_search_call', () => {
      const callId = str(payload, 'call_id') ?? str(payload, 'id');
      if (!callId) return [];
      return [{ type: 'call' as const, ...base, ...turn, callId, rawName: 'tool_search', input: objectInput(payload['arguments']) }];
    })
    .with('web_search_call', () => {
      const action = obj(payload, 'action');
      const status = str(payload, 'status');
      const callId = str(payload, 'id') ?? `web_search_call@${base.offset}`;
      return [
        itemTool(base, turn, callId, 'web_search', {
          input: action ?? {},
          outcome: isFailedStatus(status) ? 'error' : statusOutcome(status),
        }),
      ];
    })
    .otherwise(() => []);
}

/** The call's tool name, canonical (see {@link canonicalCodexToolName}); undefined when missing or blank. */
function toolName(payload: Obj): string | undefined {
  const raw = str(payload, 'name');
  return raw === undefined ? undefined : canonicalCodexToolName(raw) || undefined;
}

/** Command, patch, path and stdin-session details of a `function_call`, by tool name. */
function callDetails(name: string, args: Obj): { command?: string; patchText?: string; path?: string; stdinSessionId?: string } {
  return match(name)
    .with('exec_command', () => opt('command', commandFromValue(args['cmd'] ?? args['command'])))
    .with(P.union('shell', 'container.exec', 'shell_command', 'local_shell'), () => {
      const argv = asStringArray(args['command']);
      const command = commandFromValue(args['command']);
      return { ...opt('command', command), ...opt('patchText', patchFromShellCommand(argv, command)) };
    })
    .with('apply_patch', () => opt('patchText', str(args, 'input') ?? str(args, 'patch')))
    .with('view_image', () => opt('path', str(args, 'path')))
    .with('write_stdin', () => opt('stdinSessionId', idString(args['session_id'])))
    .otherwise(() => ({}));
}

function itemTool(
  base: Base,
  turn: { turnId?: string },
  callId: string,
  rawName: string,
  rest: Pick<ItemToolRecord, 'input' | 'outcome'> & { path?: string; output?: string },
): ItemToolRecord {
  return { type: 'item-tool', ...base, ...turn, callId, rawName, ...rest };
}

/** The turn id of a `response_item`: the passthrough metadata (0.169) or the retained-source id. */
function responseTurnId(payload: Obj): string | undefined {
  const passthrough = obj(payload, 'internal_chat_message_metadata_passthrough');
  return (passthrough ? str(passthrough, 'turn_id') : undefined) || undefined;
}

/** Provenance types of a user message's content items (`user`, `agents_md`, `harness`…). */
function provenanceOf(payload: Obj): string[] {
  const passthrough = obj(payload, 'internal_chat_message_metadata_passthrough');
  const metadata = passthrough?.['content_item_metadata'];
  if (!Array.isArray(metadata)) return [];
  return metadata.flatMap((entry) => {
    const provenance = isRecord(entry) ? obj(entry, 'provenance') : undefined;
    const type = provenance ? str(provenance, 'type') : undefined;
    return type ? [type] : [];
  });
}

/** `function_call.arguments`: a JSON string (normally), an object, or anything else kept raw. */
function parseArguments(value: unknown): Obj {
  if (isRecord(value)) return value;
  if (typeof value !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isRecord(parsed) ? parsed : { arguments: value };
  } catch {
    return { arguments: value };
  }
}

function objectInput(value: unknown): Obj {
  if (isRecord(value)) return value;
  if (typeof value === 'string') return parseArguments(value);
  return value === undefined ? {} : { arguments: value };
}

/** Absolute paths of a `changes` map (`FileChange.changes`, `patch_apply_end.changes`), with move targets. */
function changePaths(changes: unknown): string[] {
  if (!isRecord(changes)) return [];
  const paths: string[] = [];
  for (const [path, change] of Object.entries(changes)) {
    if (!paths.includes(path)) paths.push(path);
    const moved = isRecord(change) ? str(change, 'move_path') : undefined;
    if (moved && !paths.includes(moved)) paths.push(moved);
  }
  return paths;
}

function mcpName(server: string | undefined, tool: string | undefined): string {
  return `mcp__${server ?? 'unknown'}__${tool ?? 'unknown'}`;
}

function isFailedStatus(status: string | undefined): boolean {
  return status === 'failed' || status === 'declined' || status === 'error' || status === 'cancelled' || status === 'canceled';
}

function statusOutcome(status: string | undefined): 'success' | 'pending' {
  return status === 'in_progress' || status === 'inProgress' || status === 'searching' ? 'pending' : 'success';
}

/** `file:///abs/path` (PathUri) → `/abs/path`; plain paths unchanged. */
export function pathFromUri(value: string | undefined): string | undefined {
  if (value === undefined || !value.startsWith('file://')) return value;
  try {
    return decodeURIComponent(new URL(value).pathname);
  } catch {
    return value.slice('file://'.length);
  }
}

function joinOutput(stdout: string | undefined, stderr: string | undefined): string | undefined {
  const parts = [stdout, stderr].filter((part): part is string => typeof part === 'string' && part !== '');
  return parts.length > 0 ? parts.join('\n') : undefined;
}


function pick(source: Obj, keys: readonly string[]): Obj {
  const out: Obj = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}



function int(source: Obj, key: string): number | undefined {
  const value = num(source, key);
  return value !== undefined && Number.isInteger(value) ? value : undefined;
}


function idString(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** `{ [key]: value }` when value is defined, `{}` otherwise (exactOptionalPropertyTypes-friendly). */
