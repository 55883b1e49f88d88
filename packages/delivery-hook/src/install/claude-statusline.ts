import { getNodeValue, parseTree } from 'jsonc-parser';
import { appendMember, applyTextEdits, detectJsonLayout, removeMember, shellCommand } from '@agent-checkpoint/setup-kit';
import { isOurHookCommandForm, type HookProgram } from './hook-command.ts';

/** The arguments of our status line command (`<node> <bundle> statusline`). */
const STATUSLINE_ARGS = ['statusline'] as const;

/** The `statusLine` value install writes into Claude Code's settings. */
export function statusLineFor(program: HookProgram): { readonly type: 'command'; readonly command: string } {
  return { type: 'command', command: shellCommand([program.node, program.bundle, ...STATUSLINE_ARGS]) };
}

/**
 * Claude Code's settings `text` with our status line added when it has **none** (issue 14 point 8:
 * install shows the context level without replacing a status line the user chose). A `statusLine`
 * that exists — the user's, or ours from an earlier install — is left exactly as it is. Pure text in,
 * text out; every other byte kept. `text` must be a JSON object (the hook edit validated it).
 */
export function addStatusLineIfNone(text: string, program: HookProgram): { readonly text: string; readonly added: boolean } {
  const root = parseTree(text);
  if (root?.type !== 'object') return { text, added: false };
  const has = (root.children ?? []).some((p) => p.children?.[0]?.value === 'statusLine');
  if (has) return { text, added: false };
  const edits = appendMember(text, root, { kind: 'property', key: 'statusLine', value: statusLineFor(program) }, detectJsonLayout(text));
  return { text: applyTextEdits(text, edits), added: true };
}

/**
 * `text` without a top-level `statusLine` whose command is ours (recorded by an install, or exactly
 * the form install writes); the user's own status line (even one that mentions our hook) is kept.
 */
export function removeOurStatusLine(text: string, recorded: readonly string[] = []): { readonly text: string; readonly removed: boolean } {
  const root = parseTree(text);
  if (root?.type !== 'object') return { text, removed: false };
  const index = (root.children ?? []).findIndex((p) => p.children?.[0]?.value === 'statusLine');
  const property = index === -1 ? undefined : root.children?.[index];
  const valueNode = property?.children?.[1];
  if (valueNode === undefined) return { text, removed: false };
  const value: unknown = getNodeValue(valueNode);
  const command = typeof value === 'object' && value !== null ? (value as { command?: unknown }).command : undefined;
  const ours = typeof command === 'string' && (recorded.includes(command) || isOurHookCommandForm(command, [STATUSLINE_ARGS]));
  if (!ours) return { text, removed: false };
  return { text: applyTextEdits(text, removeMember(text, root, index)), removed: true };
}
