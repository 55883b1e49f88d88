import type { ConfigFile } from './config-schema.ts';
import { PRIVILEGED_KEYS } from './config-privileged-keys.ts';
import type { PrivilegedKey } from './privileged-key.ts';

/** One privileged key set in a file: where (`runTests.command`), its value and why it is privileged. */
export interface PrivilegedSetting {
  readonly key: string;
  readonly value: unknown;
  readonly why: string;
}

/** The privileged keys `config` sets, in {@link PRIVILEGED_KEYS} order. */
export function privilegedSettings(config: ConfigFile, keys: readonly PrivilegedKey[] = PRIVILEGED_KEYS): PrivilegedSetting[] {
  const out: PrivilegedSetting[] = [];
  for (const key of keys) visit(config, key.path, '', (name, value) => out.push({ key: name, value, why: key.why }));
  return out;
}

/**
 * `config` without its privileged keys (a copy; the input is left alone), and which were removed. An
 * object left empty stays, empty: `{ "runTests": {} }` then resolves exactly like a file that never
 * named a command.
 */
export function stripPrivilegedKeys(
  config: ConfigFile,
  keys: readonly PrivilegedKey[] = PRIVILEGED_KEYS,
): { readonly config: ConfigFile; readonly removed: readonly PrivilegedSetting[] } {
  const removed = privilegedSettings(config, keys);
  if (removed.length === 0) return { config, removed };
  const copy = structuredClone(config) as Record<string, unknown>;
  for (const key of keys) remove(copy, key.path);
  return { config: copy as ConfigFile, removed };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function visit(value: unknown, path: readonly string[], at: string, found: (key: string, value: unknown) => void): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (head === '[]') {
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, rest, `${at}[${i}]`, found));
    return;
  }
  if (!isRecord(value) || !Object.hasOwn(value, head) || value[head] === undefined) return;
  const name = at === '' ? head : `${at}.${head}`;
  if (rest.length === 0) found(name, value[head]);
  else visit(value[head], rest, name, found);
}

function remove(value: unknown, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (head === '[]') {
    if (Array.isArray(value)) for (const item of value) remove(item, rest);
    return;
  }
  if (!isRecord(value) || !Object.hasOwn(value, head)) return;
  if (rest.length === 0) delete value[head];
  else remove(value[head], rest);
}
