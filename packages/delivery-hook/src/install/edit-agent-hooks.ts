import type { AgentId } from '@agent-checkpoint/core';
import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { appendMember, applyTextEdits, detectJsonLayout, removeMember, replaceValue, type TextEdit } from '@agent-checkpoint/setup-kit';
import { profileOf } from '../agents/profiles.ts';
import { removeOurStatusLine } from './claude-statusline.ts';
import { allHookEntries } from './hook-entries.ts';
import type { HookEntrySpec } from './hook-entry-spec.ts';
import { hookCommandLine, isOurHookCommandForm, mentionsOurHook, type HookProgram } from './hook-command.ts';

/**
 * Adding and removing our hook entries in an agent's settings file (Claude `settings.json`, Gemini
 * `settings.json`, Codex `hooks.json` — all the `{"hooks": {"<Event>": [{"hooks": [handler]}]}}`
 * shape). Pure text in, text out; every byte outside our entries is kept.
 *
 * A handler is ours when its command is one an install recorded writing (`recorded`, exact string),
 * or exactly the form every install wrote for that event (see `isOurHookCommandForm`). Commands that
 * merely mention agent-checkpoint-hook (a user's wrapper, a notification) are the user's: never
 * replaced, never removed.
 */

/** Whether the handler `command` in `event` is ours (see above). */
function isOurHandler(event: string, command: unknown, recorded: readonly string[]): boolean {
  if (typeof command !== 'string') return false;
  if (recorded.includes(command)) return true;
  const allowedArgs = allHookEntries()
    .filter((e) => e.event === event)
    .map((e) => e.args);
  return isOurHookCommandForm(command, allowedArgs);
}

/** One of our handlers found in a settings file. */
export interface FoundHookEntry {
  readonly event: string;
  /** Index of the matcher group in the event's array, and of the handler in the group's `hooks`. */
  readonly group: number;
  readonly handler: number;
  readonly command: string;
  readonly timeout?: number;
  readonly value: Readonly<Record<string, unknown>>;
}

export type SettingsEditResult =
  | { readonly ok: true; readonly text: string; readonly hadOurEntries: boolean; readonly empty: boolean }
  | { readonly ok: false; readonly error: string };

/** The handler object an agent gets for one entry (shape and timeout unit: its profile's). */
export function handlerFor(agent: AgentId, entry: HookEntrySpec, program: HookProgram): Record<string, unknown> {
  return profileOf(agent).hookHandler(entry, hookCommandLine(program, entry));
}

/** The matcher group wrapping a handler (Gemini's AfterAgent ignores the matcher; `*` is its documented form). */
export function groupFor(agent: AgentId, handler: Record<string, unknown>): Record<string, unknown> {
  return profileOf(agent).hookGroup(handler);
}

/**
 * `text` (undefined: no file yet) with exactly one handler of ours per entry: an existing one of ours
 * that already has the wanted fields is left as it is (extra keys the user added stay), one that
 * differs is replaced in place, duplicates are removed, a missing one is appended in a group of its
 * own.
 */
export function installHookEntries(
  text: string | undefined,
  agent: AgentId,
  entries: readonly HookEntrySpec[],
  program: HookProgram,
  recorded: readonly string[] = [],
): SettingsEditResult {
  let current = text === undefined || text.trim() === '' ? '{}\n' : text;
  const initial = readSettings(current);
  if (!initial.ok) return initial;
  const hadOurEntries = findOurHookEntries(current, recorded).length > 0;
  for (const entry of entries) {
    const wanted = handlerFor(agent, entry, program);
    for (let guard = 0; guard < 100; guard++) {
      const next = installStep(current, agent, entry.event, wanted, recorded);
      if (!next.ok) return next;
      if (next.text === current) break;
      current = next.text;
    }
  }
  return { ok: true, text: current, hadOurEntries, empty: false };
}

/** `text` without any handler of ours, in any event; groups, events and `hooks` we emptied are removed too. */
export function uninstallHookEntries(text: string, recorded: readonly string[] = []): SettingsEditResult {
  let current = text;
  const initial = readSettings(current);
  if (!initial.ok) return initial;
  let hadOurEntries = findOurHookEntries(current, recorded).length > 0;
  for (let guard = 0; guard < 1000; guard++) {
    const found = findOurHookEntries(current, recorded)[0];
    if (found === undefined) break;
    current = applyTextEdits(current, removeHandler(current, found));
  }
  // Claude Code's status line, when install added ours (the user's own is kept).
  const statusLine = removeOurStatusLine(current, recorded);
  if (statusLine.removed) {
    current = statusLine.text;
    hadOurEntries = true;
  }
  const root = parseTree(current);
  const empty = root?.type === 'object' && (root.children ?? []).length === 0;
  return { ok: true, text: current, hadOurEntries, empty };
}

/** Every handler of ours in the file (`recorded`: the commands an install record says we wrote), in document order. Invalid documents have none. */
export function findOurHookEntries(text: string, recorded: readonly string[] = []): FoundHookEntry[] {
  return findHandlers(text, (event, command) => isOurHandler(event, command, recorded));
}

/** Handlers that are not ours but whose command mentions agent-checkpoint-hook (a user's wrapper?): left alone, reported. */
export function findOtherMentions(text: string, recorded: readonly string[] = []): FoundHookEntry[] {
  return findHandlers(text, (event, command) => mentionsOurHook(command) && !isOurHandler(event, command, recorded));
}

function findHandlers(text: string, accept: (event: string, command: unknown) => boolean): FoundHookEntry[] {
  const root = parse(text).root;
  const hooks = root?.type === 'object' ? propertyValue(root, 'hooks') : undefined;
  if (hooks?.type !== 'object') return [];
  const found: FoundHookEntry[] = [];
  for (const property of hooks.children ?? []) {
    const event = property.children?.[0]?.value;
    const groups = property.children?.[1];
    if (typeof event !== 'string' || groups?.type !== 'array') continue;
    (groups.children ?? []).forEach((group, g) => {
      const handlers = group.type === 'object' ? propertyValue(group, 'hooks') : undefined;
      if (handlers?.type !== 'array') return;
      (handlers.children ?? []).forEach((handler, h) => {
        const value = handler.type === 'object' ? (getNodeValue(handler) as Record<string, unknown>) : undefined;
        if (value === undefined || !accept(event, value['command'])) return;
        found.push({
          event,
          group: g,
          handler: h,
          command: value['command'] as string,
          ...(typeof value['timeout'] === 'number' ? { timeout: value['timeout'] } : {}),
          value,
        });
      });
    });
  }
  return found;
}

/** One change towards "exactly one wanted handler for this event", or the text unchanged when done. */
function installStep(text: string, agent: AgentId, event: string, wanted: Record<string, unknown>, recorded: readonly string[]): SettingsEditResult {
  const layout = detectJsonLayout(text);
  const { root } = parse(text);
  if (root?.type !== 'object') return { ok: false, error: 'the top level is not a JSON object' };
  const done = (edits: TextEdit[]): SettingsEditResult => ({ ok: true, text: applyTextEdits(text, edits), hadOurEntries: false, empty: false });
  const group = groupFor(agent, wanted);
  const hooks = propertyValue(root, 'hooks');
  if (hooks === undefined) return done(appendMember(text, root, { kind: 'property', key: 'hooks', value: { [event]: [group] } }, layout));
  if (hooks.type !== 'object') return { ok: false, error: '"hooks" is not an object' };
  const groups = propertyValue(hooks, event);
  if (groups === undefined) return done(appendMember(text, hooks, { kind: 'property', key: event, value: [group] }, layout));
  if (groups.type !== 'array') return { ok: false, error: `"hooks.${event}" is not an array` };

  const ours = findOurHookEntries(text, recorded).filter((f) => f.event === event);
  const first = ours[0];
  if (first === undefined) return done(appendMember(text, groups, { kind: 'element', value: group }, layout));
  const duplicate = ours.at(-1);
  if (ours.length > 1 && duplicate !== undefined) return done(removeHandler(text, duplicate));
  if (hasFields(first.value, wanted)) return done([]);
  const node = handlerNode(groups, first);
  if (node === undefined) return { ok: false, error: `cannot locate the agent-checkpoint handler in "hooks.${event}"` };
  return done(replaceValue(text, node, wanted, layout));
}

/** Edits removing one handler: the whole group when it holds nothing else, the event and `hooks` when they end up empty. */
function removeHandler(text: string, found: FoundHookEntry): TextEdit[] {
  const { root } = parse(text);
  const hooks = root === undefined ? undefined : propertyValue(root, 'hooks');
  const groups = hooks === undefined ? undefined : propertyValue(hooks, found.event);
  const group = groups?.children?.[found.group];
  const handlers = group === undefined ? undefined : propertyValue(group, 'hooks');
  if (root === undefined || hooks === undefined || groups === undefined || group === undefined || handlers === undefined) return [];
  if ((handlers.children ?? []).length > 1) return removeMember(text, handlers, found.handler);
  if ((groups.children ?? []).length > 1) return removeMember(text, groups, found.group);
  const eventIndex = (hooks.children ?? []).findIndex((p) => p.children?.[0]?.value === found.event);
  if ((hooks.children ?? []).length > 1) return removeMember(text, hooks, eventIndex);
  const hooksIndex = (root.children ?? []).findIndex((p) => p.children?.[0]?.value === 'hooks');
  return removeMember(text, root, hooksIndex);
}

function handlerNode(groups: Node, found: FoundHookEntry): Node | undefined {
  const group = groups.children?.[found.group];
  const handlers = group === undefined ? undefined : propertyValue(group, 'hooks');
  return handlers?.children?.[found.handler];
}

/** True when every field of `wanted` is in `value` with the same value. */
function hasFields(value: Readonly<Record<string, unknown>>, wanted: Readonly<Record<string, unknown>>): boolean {
  return Object.entries(wanted).every(([key, v]) => JSON.stringify(value[key]) === JSON.stringify(v));
}

function propertyValue(object: Node, key: string): Node | undefined {
  if (object.type !== 'object') return undefined;
  for (const property of object.children ?? []) {
    if (property.children?.[0]?.value === key) return property.children[1];
  }
  return undefined;
}

function parse(text: string): { root: Node | undefined; errors: ParseError[] } {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  return { root, errors };
}

/** The document, or the first syntax error as `line:column: message`. */
function readSettings(text: string): { ok: true } | { ok: false; error: string } {
  const { root, errors } = parse(text);
  const error = errors[0];
  if (error !== undefined) {
    const before = text.slice(0, error.offset);
    const line = before.split('\n').length;
    const column = error.offset - before.lastIndexOf('\n');
    return { ok: false, error: `${line}:${column}: ${printParseErrorCode(error.error)}` };
  }
  if (root?.type !== 'object') return { ok: false, error: 'the top level is not a JSON object' };
  const duplicate = findDuplicateHookKey(root);
  if (duplicate !== undefined) return { ok: false, error: duplicate };
  return { ok: true };
}

/** A key of the hooks path that appears twice in `text` (see {@link findDuplicateHookKey}); undefined when none or unparsable. */
export function duplicateHookKeyIn(text: string): string | undefined {
  const { root } = parse(text);
  return root?.type === 'object' ? findDuplicateHookKey(root) : undefined;
}

/**
 * A key that appears twice in an object on the path our edits walk (the top level, `hooks`, each
 * matcher group, each handler), described for people; undefined when there is none. The agents
 * parse with a JSON parser that keeps the LAST duplicate while a tree edit would change the first:
 * install would report success for an entry the agent never sees. Such a file is refused.
 */
function findDuplicateHookKey(root: Node): string | undefined {
  const inRoot = duplicateKeyIn(root, 'the top level');
  if (inRoot !== undefined) return inRoot;
  const hooks = propertyValue(root, 'hooks');
  if (hooks?.type !== 'object') return undefined;
  const inHooks = duplicateKeyIn(hooks, '"hooks"');
  if (inHooks !== undefined) return inHooks;
  for (const property of hooks.children ?? []) {
    const event = property.children?.[0]?.value;
    const groups = property.children?.[1];
    if (typeof event !== 'string' || groups?.type !== 'array') continue;
    for (const [g, group] of (groups.children ?? []).entries()) {
      const where = `"hooks.${event}[${g}]"`;
      const inGroup = duplicateKeyIn(group, where);
      if (inGroup !== undefined) return inGroup;
      const handlers = propertyValue(group, 'hooks');
      if (handlers?.type !== 'array') continue;
      for (const [h, handler] of (handlers.children ?? []).entries()) {
        const inHandler = duplicateKeyIn(handler, `${where.slice(0, -1)}.hooks[${h}]"`);
        if (inHandler !== undefined) return inHandler;
      }
    }
  }
  return undefined;
}

function duplicateKeyIn(object: Node, where: string): string | undefined {
  if (object.type !== 'object') return undefined;
  const seen = new Set<string>();
  for (const property of object.children ?? []) {
    const key = property.children?.[0]?.value;
    if (typeof key !== 'string') continue;
    if (seen.has(key)) return `the key ${JSON.stringify(key)} appears more than once in ${where} (the agent reads only the last one); merge the copies into one`;
    seen.add(key);
  }
  return undefined;
}
