import { contextCheckpointConfigOf, contextCheckpointSections } from '@agent-checkpoint/context-checkpoint/load';
import { findProjectRoot, loadConfig, resolveStateDir, type ResolvedConfig } from '@agent-checkpoint/core';
import { EXIT_FAILURE } from '@agent-checkpoint/setup-kit';
import { STDERR_PREFIX } from '../debug-log.ts';
import { chooseCommandCwd, currentDirectory } from '../run-cwd.ts';

/** Writes to stdout. */
export type Write = (text: string) => Promise<void>;

/** The project a context command works on: its root, merged config and the state directory. */
export interface CommandProject {
  readonly cwd: string;
  readonly projectRoot: string;
  readonly config: ResolvedConfig;
  readonly context: ReturnType<typeof contextCheckpointConfigOf>;
  readonly stateDir: string;
}

/**
 * Resolve `--cwd` (default the current directory) to the project, its config (diagnostics on stderr)
 * and the state directory. A string is the failure message.
 */
export async function openCommandProject(cwdOption: string | undefined): Promise<CommandProject | string> {
  const where = chooseCommandCwd(cwdOption, currentDirectory());
  if (where.kind === 'none') return where.detail;
  const env = process.env;
  const loaded = await loadConfig({ cwd: where.cwd, env, sections: contextCheckpointSections });
  for (const note of loaded.diagnostics) process.stderr.write(`${STDERR_PREFIX} config: ${note}\n`);
  let stateDir: string;
  try {
    stateDir = resolveStateDir({ env });
  } catch (error) {
    return `state directory: ${error instanceof Error ? error.message : String(error)}`;
  }
  return { cwd: where.cwd, projectRoot: findProjectRoot(where.cwd), config: loaded.config, context: contextCheckpointConfigOf(loaded.config), stateDir };
}

/** Report a failure on stderr; exit code 1. */
export function commandFailure(message: string): number {
  process.stderr.write(`${STDERR_PREFIX} ${message}\n`);
  return EXIT_FAILURE;
}

/** `{...}\n`: the `--json` output. */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
