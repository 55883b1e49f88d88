import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { findProjectRoot, PROJECT_CONFIG_FILE, userConfigPath } from './config-paths.ts';
import type { ConfigSectionSource } from './config-section.ts';
import { loadConfig, type LoadedConfig } from './load-config.ts';

/** Result of {@link loadTurnEndConfig}. */
export type TurnEndConfig =
  | { readonly kind: 'loaded'; readonly loaded: LoadedConfig }
  /** A configuration path exists but is neither a regular file nor a directory (a FIFO, socket or device). */
  | { readonly kind: 'unusable'; readonly path: string; readonly detail: string };

/**
 * The configuration of a turn end, loaded once for the whole pipeline. A configuration path that is
 * neither a regular file nor a directory is refused before anything reads it: a FIFO would block a
 * synchronous read that no timer can end (`readConfigBytes` also refuses one on its descriptor; this
 * is the cheap first line, and it makes the whole turn end pass rather than run on defaults the user
 * did not choose). Never throws.
 */
export async function loadTurnEndConfig(options: {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `defaults`: skip the refusal; `loadConfig` ignores such a file with a diagnostic, like any broken one. */
  readonly unusablePath?: 'pass' | 'defaults';
  /** Config sections of the route's extensions (see `LoadConfigOptions.sections`). */
  readonly sections?: ConfigSectionSource;
}): Promise<TurnEndConfig> {
  const unsafe = options.unusablePath === 'defaults' ? undefined : await unreadableConfigPath(options.cwd, options.env);
  if (unsafe !== undefined) return { kind: 'unusable', path: unsafe, detail: `${unsafe} is not a regular file` };
  return { kind: 'loaded', loaded: await loadConfig({ cwd: options.cwd, env: options.env, ...(options.sections === undefined ? {} : { sections: options.sections }) }) };
}

/**
 * A configuration file path (project, then user) that exists but is neither a regular file nor a
 * directory. Absent or unreadable paths are not this function's concern: `loadConfig` reports them.
 */
export async function unreadableConfigPath(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<string | undefined> {
  let candidates: string[];
  try {
    candidates = [join(findProjectRoot(cwd), PROJECT_CONFIG_FILE), userConfigPath(env, undefined).path];
  } catch {
    return undefined;
  }
  for (const path of candidates) {
    try {
      const info = await stat(path);
      if (!info.isFile() && !info.isDirectory()) return path;
    } catch {
      // Absent or unreadable: loadConfig reports it.
    }
  }
  return undefined;
}
