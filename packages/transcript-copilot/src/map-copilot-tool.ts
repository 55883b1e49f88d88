import type { ToolKind } from '@agent-checkpoint/core';
import { match, P } from 'ts-pattern';

/**
 * Copilot CLI 1.0.102's tools by kind (the tool list its requests offer). Which file tools a session
 * has depends on the model: `view`/`create`/`edit` for most, a freeform `apply_patch` for GPT models.
 * `sql` keeps the session's todo list in its own database (bookkeeping, no project file).
 */
export function copilotToolKind(name: string): ToolKind {
  return match(name)
    .returnType<ToolKind>()
    .with('bash', 'powershell', () => 'shell')
    .with('view', () => 'read')
    .with('create', () => 'write')
    .with('edit', 'str_replace_editor', () => 'edit')
    .with('apply_patch', () => 'patch')
    .with('rg', 'grep', 'glob', 'semantic_code_search', () => 'search')
    .with('web_fetch', 'web_search', () => 'web')
    .with('sql', 'update_todo', 'report_intent', () => 'plan')
    .with(P.string, () => 'other')
    .exhaustive();
}

/** The file paths a call names: a file tool's `path`, every file of a patch; none for the others. */
export function copilotToolPaths(kind: ToolKind, args: Readonly<Record<string, unknown>>): string[] {
  const target = typeof args['path'] === 'string' ? [args['path']] : [];
  return match(kind)
    .with('read', 'write', 'edit', () => target)
    .with('patch', () => patchPaths(patchText(args)))
    .with('shell', 'search', 'web', 'plan', 'other', () => [])
    .exhaustive();
}

/** The patch of an `apply_patch` call: recorded as the freeform input string, or under `input`/`patch`. */
function patchText(args: Readonly<Record<string, unknown>>): string {
  for (const key of ['input', 'patch']) {
    const value = args[key];
    if (typeof value === 'string') return value;
  }
  return '';
}

const PATCH_FILE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm;

/** Every file an `*** Begin Patch` envelope touches (moves give both sides), in order, once each. */
export function patchPaths(patch: string): string[] {
  return [...new Set([...patch.matchAll(PATCH_FILE)].map((m) => (m[1] ?? '').trim()).filter((p) => p !== ''))];
}
