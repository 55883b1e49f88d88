import path from 'node:path';
import { assertNever } from '@agent-checkpoint/core';
import type { PatchChange, ToolCall } from './scenario.ts';

/**
 * Translation of agent-neutral {@link ToolCall}s into each CLI's own tool vocabulary. Argument
 * names follow the tool schemas the CLIs send (checked against logged requests of the pinned
 * versions: Claude Code 2.1.330, Gemini CLI 0.61.0, Codex 0.169.0).
 */

/** A call as Claude's `tool_use` block or Gemini's `functionCall` part carries it. */
export interface NamedCall {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** Codex output items: unified-exec function calls and freeform `apply_patch` custom calls. */
export type CodexCall =
  | { readonly type: 'function_call'; readonly name: string; readonly arguments: string; readonly namespace?: string }
  | { readonly type: 'custom_tool_call'; readonly name: string; readonly input: string };

const DEFAULT_YIELD_MS = 10_000;

/** Claude needs absolute paths for Read/Write/Edit; `root` is the session's working directory. */
export function toClaudeCalls(calls: readonly ToolCall[], root: string): NamedCall[] {
  const abs = (p: string): string => path.resolve(root, p);
  return calls.flatMap((call): NamedCall[] => {
    switch (call.kind) {
      case 'shell':
        return [{ name: 'Bash', input: withDescription({ command: call.command }, call.description) }];
      case 'read':
        return [{ name: 'Read', input: { file_path: abs(call.path) } }];
      case 'write':
        return [{ name: 'Write', input: { file_path: abs(call.path), content: call.content } }];
      case 'edit':
        return [{ name: 'Edit', input: { file_path: abs(call.path), old_string: call.oldText, new_string: call.newText } }];
      case 'patch':
        return call.changes.map((change) => claudePatchCall(change, abs));
      case 'subagent':
        // The input as Claude Code 2.1.330's Agent tool takes it (claude-cli.md, subagents).
        return [
          {
            name: 'Agent',
            input: { description: call.description, prompt: call.prompt, subagent_type: call.subagentType ?? 'general-purpose', run_in_background: false },
          },
        ];
      case 'codex':
        throw new Error('mock: native Codex calls are scripted for Codex only');
      default:
        return assertNever(call);
    }
  });
}

function claudePatchCall(change: PatchChange, abs: (p: string) => string): NamedCall {
  switch (change.op) {
    case 'update':
      return { name: 'Edit', input: { file_path: abs(change.path), old_string: change.oldText, new_string: change.newText } };
    case 'add':
      return { name: 'Write', input: { file_path: abs(change.path), content: change.content } };
    case 'delete':
      return { name: 'Bash', input: { command: `rm -- ${shellQuote(change.path)}` } };
    default:
      return assertNever(change);
  }
}

/** Gemini accepts workspace-relative paths. */
export function toGeminiCalls(calls: readonly ToolCall[]): NamedCall[] {
  return calls.flatMap((call): NamedCall[] => {
    switch (call.kind) {
      case 'shell':
        return [{ name: 'run_shell_command', input: withDescription({ command: call.command }, call.description) }];
      case 'read':
        return [{ name: 'read_file', input: { file_path: call.path } }];
      case 'write':
        return [{ name: 'write_file', input: { file_path: call.path, content: call.content } }];
      case 'edit':
        return [{ name: 'replace', input: geminiReplace(call.path, call.oldText, call.newText) }];
      case 'patch':
        return call.changes.map((change) => geminiPatchCall(change));
      case 'subagent':
        throw new Error('mock: subagent calls are scripted for Claude only');
      case 'codex':
        throw new Error('mock: native Codex calls are scripted for Codex only');
      default:
        return assertNever(call);
    }
  });
}

function geminiReplace(filePath: string, oldText: string, newText: string): Record<string, unknown> {
  return { file_path: filePath, instruction: `Replace text in ${filePath}`, old_string: oldText, new_string: newText };
}

function geminiPatchCall(change: PatchChange): NamedCall {
  switch (change.op) {
    case 'update':
      return { name: 'replace', input: geminiReplace(change.path, change.oldText, change.newText) };
    case 'add':
      return { name: 'write_file', input: { file_path: change.path, content: change.content } };
    case 'delete':
      return { name: 'run_shell_command', input: { command: `rm -- ${shellQuote(change.path)}` } };
    default:
      return assertNever(change);
  }
}

/**
 * Pi (`@mariozechner/pi-coding-agent` 0.73.1) offers lowercase `bash`/`read`/`write`/`edit` over the
 * Anthropic Messages API; `edit` takes `{path, edits:[{oldText,newText}]}` (its dist/core/tools schemas).
 */
export function toPiCalls(calls: readonly ToolCall[]): NamedCall[] {
  return calls.flatMap((call): NamedCall[] => {
    switch (call.kind) {
      case 'shell':
        return [{ name: 'bash', input: { command: call.command } }];
      case 'read':
        return [{ name: 'read', input: { path: call.path } }];
      case 'write':
        return [{ name: 'write', input: { path: call.path, content: call.content } }];
      case 'edit':
        return [{ name: 'edit', input: { path: call.path, edits: [{ oldText: call.oldText, newText: call.newText }] } }];
      case 'patch':
        return call.changes.map((change): NamedCall => {
          switch (change.op) {
            case 'update':
              return { name: 'edit', input: { path: change.path, edits: [{ oldText: change.oldText, newText: change.newText }] } };
            case 'add':
              return { name: 'write', input: { path: change.path, content: change.content } };
            case 'delete':
              return { name: 'bash', input: { command: `rm -- ${shellQuote(change.path)}` } };
            default:
              return assertNever(change);
          }
        });
      case 'subagent':
        throw new Error('mock: subagent calls are scripted for Claude only');
      case 'codex':
        throw new Error('mock: native Codex calls are scripted for Codex only');
      default:
        return assertNever(call);
    }
  });
}

/**
 * GitHub Copilot CLI 1.0.102: `bash` ({command, description}), `view` ({path}), `create`
 * ({path, file_text}), `edit` ({path, old_str, new_str}); file tools take absolute paths.
 */
export function toCopilotCalls(calls: readonly ToolCall[], root: string): NamedCall[] {
  const abs = (p: string): string => path.resolve(root, p);
  return calls.flatMap((call): NamedCall[] => {
    switch (call.kind) {
      case 'shell':
        return [{ name: 'bash', input: { command: call.command, description: call.description ?? 'Run a command' } }];
      case 'read':
        return [{ name: 'view', input: { path: abs(call.path) } }];
      case 'write':
        return [{ name: 'create', input: { path: abs(call.path), file_text: call.content } }];
      case 'edit':
        return [{ name: 'edit', input: { path: abs(call.path), old_str: call.oldText, new_str: call.newText } }];
      case 'patch':
        return call.changes.map((change) => copilotPatchCall(change, abs));
      case 'subagent':
        // The `task` tool runs a subagent in the same session (copilot-cli.md); 1.0.102 requires a `name`.
        return [{ name: 'task', input: { name: slug(call.description), description: call.description, prompt: call.prompt, agent_type: call.subagentType ?? 'general-purpose' } }];
      case 'codex':
        throw new Error('mock: native Codex calls are scripted for Codex only');
      default:
        return assertNever(call);
    }
  });
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'subagent';
}

function copilotPatchCall(change: PatchChange, abs: (p: string) => string): NamedCall {
  switch (change.op) {
    case 'update':
      return { name: 'edit', input: { path: abs(change.path), old_str: change.oldText, new_str: change.newText } };
    case 'add':
      return { name: 'create', input: { path: abs(change.path), file_text: change.content } };
    case 'delete':
      return { name: 'bash', input: { command: `rm -- ${shellQuote(change.path)}`, description: 'Delete a file' } };
    default:
      return assertNever(change);
  }
}

/**
 * Qwen Code 0.24.4 (a Gemini CLI fork, over chat completions): `run_shell_command` ({command,
 * description}), `read_file` / `write_file` ({file_path}), `edit` ({file_path, old_string,
 * new_string}), `agent` ({description, prompt, subagent_type}); file tools take absolute paths.
 */
export function toQwenCalls(calls: readonly ToolCall[], root: string): NamedCall[] {
  const abs = (p: string): string => path.resolve(root, p);
  return calls.flatMap((call): NamedCall[] => {
    switch (call.kind) {
      case 'shell':
        return [{ name: 'run_shell_command', input: withDescription({ command: call.command, is_background: false }, call.description) }];
      case 'read':
        return [{ name: 'read_file', input: { file_path: abs(call.path) } }];
      case 'write':
        return [{ name: 'write_file', input: { file_path: abs(call.path), content: call.content } }];
      case 'edit':
        return [{ name: 'edit', input: { file_path: abs(call.path), old_string: call.oldText, new_string: call.newText } }];
      case 'patch':
        return call.changes.map((change) => qwenPatchCall(change, abs));
      case 'subagent':
        return [{ name: 'agent', input: { description: call.description, prompt: call.prompt, subagent_type: call.subagentType ?? 'general-purpose' } }];
      case 'codex':
        throw new Error('mock: native Codex calls are scripted for Codex only');
      default:
        return assertNever(call);
    }
  });
}

function qwenPatchCall(change: PatchChange, abs: (p: string) => string): NamedCall {
  switch (change.op) {
    case 'update':
      return { name: 'edit', input: { file_path: abs(change.path), old_string: change.oldText, new_string: change.newText } };
    case 'add':
      return { name: 'write_file', input: { file_path: abs(change.path), content: change.content } };
    case 'delete':
      return { name: 'run_shell_command', input: { command: `rm -- ${shellQuote(change.path)}`, is_background: false } };
    default:
      return assertNever(change);
  }
}

/** True when an Anthropic request offers Pi's tool set (lowercase `bash`, no Claude `Bash`). */
export function offersPiTools(toolNames: readonly string[]): boolean {
  return toolNames.includes('bash') && !toolNames.includes('Bash');
}

/**
 * Codex has no read/write/edit tools: reads become `cat` through `exec_command`, every file
 * change becomes an `apply_patch` envelope (one envelope for a multi-file patch).
 */
export function toCodexCalls(calls: readonly ToolCall[]): CodexCall[] {
  return calls.map((call): CodexCall => {
    switch (call.kind) {
      case 'shell':
        return execCommand(call.command, call.yieldTimeMs);
      case 'read':
        return execCommand(`cat ${shellQuote(call.path)}`, undefined);
      case 'write':
        return applyPatch([{ op: 'add', path: call.path, content: call.content }]);
      case 'edit':
        return applyPatch([{ op: 'update', path: call.path, oldText: call.oldText, newText: call.newText }]);
      case 'patch':
        return applyPatch(call.changes);
      case 'subagent':
        throw new Error('mock: subagent calls are scripted for Claude only');
      case 'codex':
        return call.type === 'function_call'
          ? { type: 'function_call', name: call.name, arguments: call.input, ...(call.namespace !== undefined ? { namespace: call.namespace } : {}) }
          : { type: 'custom_tool_call', name: call.name, input: call.input };
      default:
        return assertNever(call);
    }
  });
}

function execCommand(cmd: string, yieldTimeMs: number | undefined): CodexCall {
  return {
    type: 'function_call',
    name: 'exec_command',
    arguments: JSON.stringify({ cmd, yield_time_ms: yieldTimeMs ?? DEFAULT_YIELD_MS }),
  };
}

function applyPatch(changes: readonly PatchChange[]): CodexCall {
  return { type: 'custom_tool_call', name: 'apply_patch', input: formatApplyPatch(changes) };
}

/** Renders Codex's `*** Begin Patch` envelope. Update hunks list old lines as `-`, new as `+`. */
export function formatApplyPatch(changes: readonly PatchChange[]): string {
  const out = ['*** Begin Patch'];
  for (const change of changes) {
    switch (change.op) {
      case 'add':
        out.push(`*** Add File: ${change.path}`, ...lines(change.content).map((l) => `+${l}`));
        break;
      case 'update':
        out.push(
          `*** Update File: ${change.path}`,
          '@@',
          ...lines(change.oldText).map((l) => `-${l}`),
          ...lines(change.newText).map((l) => `+${l}`),
        );
        break;
      case 'delete':
        out.push(`*** Delete File: ${change.path}`);
        break;
      default:
        assertNever(change);
    }
  }
  out.push('*** End Patch');
  return `${out.join('\n')}\n`;
}

function lines(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

function withDescription(input: Record<string, unknown>, description: string | undefined): Record<string, unknown> {
  return description === undefined ? input : { ...input, description };
}

/** POSIX single-quote quoting. */
export function shellQuote(value: string): string {
  return /^[\w./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
