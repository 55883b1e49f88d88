import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Exit codes of the management commands (the hook entry itself always exits 0). */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A command's parsed options, or a usage error to print with the command's help. */
export type ParsedArgs<T> = { readonly ok: true; readonly values: T; readonly positionals: readonly string[] } | { readonly ok: false; readonly error: string };

/** `node:util` parseArgs, strict, never throwing. */
export function parseCommandArgs<T>(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>, allowPositionals = false): ParsedArgs<T> {
  try {
    const parsed = parseArgs({ args: [...args], options, allowPositionals, strict: true });
    return { ok: true, values: parsed.values as T, positionals: parsed.positionals };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
