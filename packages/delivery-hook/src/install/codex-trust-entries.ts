import { isDeepStrictEqual } from 'node:util';
import { parse as parseToml } from 'smol-toml';

/**
 * Codex's hook trust table in `config.toml`: trusting a hook ("Trust all", /hooks) writes one table
 * per handler, `[hooks.state."<key>"]` with `trusted_hash = "sha256:…"`. The key names the handler's
 * place (observed with Codex CLI 0.169, `codex app-server` `hooks/list`):
 *
 * - a hooks file (`$CODEX_HOME/hooks.json`, `<repo>/.codex/hooks.json`): `<absolute file>:<event>:<group>:<handler>`
 * - a plugin's hooks: `<plugin id>:<hooks file relative to the plugin root>:<event>:<group>:<handler>`,
 *   e.g. `agent-checkpoint@agent-checkpoint:hooks/codex-hooks.json:stop:0:0`
 *
 * with `<event>` in snake case (`post_tool_use`). Uninstalling our hooks leaves these tables behind;
 * {@link removeTrustEntries} takes exactly the ones named out, by a minimal text edit.
 */

/** The plugin's hooks file, relative to its root (plugins/agent-checkpoint/.codex-plugin/plugin.json `hooks`). */
export const CODEX_PLUGIN_HOOKS_FILE = 'hooks/codex-hooks.json';

/** `PostToolUse` → `post_tool_use`, as Codex writes the event in a trust key. */
export function codexEventKey(event: string): string {
  return event.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** The trust key of a handler in a hooks file. */
export function codexFileTrustKey(hooksFile: string, event: string, group: number, handler: number): string {
  return `${hooksFile}:${codexEventKey(event)}:${group}:${handler}`;
}

/** The trust key of a handler of a plugin's hooks. */
export function codexPluginTrustKey(pluginId: string, event: string, group: number, handler: number): string {
  return `${pluginId}:${CODEX_PLUGIN_HOOKS_FILE}:${codexEventKey(event)}:${group}:${handler}`;
}

/** Whether a trust key belongs to the hooks of a plugin of ours (`agent-checkpoint@<marketplace>:hooks/codex-hooks.json:…`). */
export function isOurPluginTrustKey(key: string): boolean {
  return /^agent-checkpoint@[^:]+:hooks\/codex-hooks\.json:[a-z_]+:\d+:\d+$/.test(key);
}

export type TrustEditResult =
  | { readonly ok: true; readonly text: string; readonly removed: readonly string[] }
  | { readonly ok: false; readonly error: string };

/**
 * `text` without the `[hooks.state."<key>"]` tables whose key `isOurs` accepts. Only those tables'
 * lines go (a comment line right above the next table stays with it); every other byte stays. The
 * result is parsed and must equal the original data minus exactly those keys, or nothing is changed
 * (a key written in another form, inline or dotted, is refused rather than guessed at).
 */
export function removeTrustEntries(text: string, isOurs: (key: string) => boolean): TrustEditResult {
  let before: Record<string, unknown>;
  try {
    before = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, error: `it does not parse as TOML (${(error as Error).message.split('\n')[0] ?? ''})` };
  }
  const state = trustState(before);
  const removed = Object.keys(state).filter(isOurs);
  if (removed.length === 0) return { ok: true, text, removed };

  const lines = text.split(/(?<=\n)/);
  const headers: number[] = [];
  for (const [index, line] of lines.entries()) if (/^\s*\[/.test(line)) headers.push(index);
  const drop = new Set<number>();
  for (const [n, start] of headers.entries()) {
    const key = stateKeyOfHeader(lines[start]!);
    if (key === undefined || !removed.includes(key)) continue;
    let end = headers[n + 1] ?? lines.length;
    // A comment right above the next table describes it, not this one: it stays, with what follows it.
    let firstTrailing = end;
    while (firstTrailing > start + 1 && /^\s*(#.*)?\r?\n?$/.test(lines[firstTrailing - 1]!)) firstTrailing -= 1;
    const comment = lines.slice(firstTrailing, end).findIndex((line) => /^\s*#/.test(line));
    if (comment !== -1) end = firstTrailing + comment;
    for (let i = start; i < end; i += 1) drop.add(i);
  }
  const after = lines.filter((_, i) => !drop.has(i)).join('');
  let parsed: Record<string, unknown>;
  try {
    parsed = parseToml(after) as Record<string, unknown>;
  } catch {
    return { ok: false, error: 'removing the trust tables would break the file; nothing was changed' };
  }
  const expected = structuredClone(before);
  const expectedState = trustState(expected);
  for (const key of removed) delete expectedState[key];
  if (!isDeepStrictEqual(pruneEmptyState(parsed), pruneEmptyState(expected))) {
    return { ok: false, error: `the trust entries ${removed.join(', ')} are not written as [hooks.state."<key>"] tables; remove them by hand` };
  }
  return { ok: true, text: after, removed };
}

function trustState(config: Record<string, unknown>): Record<string, unknown> {
  const hooks = config['hooks'];
  if (typeof hooks !== 'object' || hooks === null) return {};
  const state = (hooks as Record<string, unknown>)['state'];
  return typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : {};
}

/** The `<key>` of a `[hooks.state."<key>"]` header line, whatever its quoting; undefined for any other line. */
function stateKeyOfHeader(line: string): string | undefined {
  if (/^\s*\[\[/.test(line)) return undefined;
  let table: unknown;
  try {
    table = parseToml(line);
  } catch {
    return undefined;
  }
  const hooks = (table as Record<string, unknown>)['hooks'];
  if (typeof hooks !== 'object' || hooks === null || Object.keys(table as object).length !== 1) return undefined;
  const state = (hooks as Record<string, unknown>)['state'];
  if (typeof state !== 'object' || state === null || Object.keys(hooks).length !== 1) return undefined;
  const keys = Object.keys(state);
  return keys.length === 1 ? keys[0] : undefined;
}

/** `hooks.state` (and then `hooks`) dropped when empty: a file without trust tables has neither. */
function pruneEmptyState(config: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(config);
  const hooks = copy['hooks'] as Record<string, unknown> | undefined;
  if (hooks !== undefined && typeof hooks === 'object') {
    const state = hooks['state'];
    if (typeof state === 'object' && state !== null && Object.keys(state).length === 0) delete hooks['state'];
    if (Object.keys(hooks).length === 0) delete copy['hooks'];
  }
  return copy;
}
