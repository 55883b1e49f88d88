import { contextCheckpointConfigOf, contextCheckpointSections } from '@agent-checkpoint/context-checkpoint/load';
import { findProjectRoot, forTerminal, jsonForTerminal, loadConfig, resolveStateDir, type ResolvedConfig } from '@agent-checkpoint/core';
import { EXIT_FAILURE } from '@agent-checkpoint/setup-kit';
import { STDERR_PREFIX } from '../debug-log.ts';
import { chooseCommandCwd, currentDirectory } from '../run-cwd.ts';

/** Writes to stdout. */
export type Write = (text: string) => Promise<void>;

/**
 * What a context command prints for people: its text quotes repository files (plan items, file and
 * directory names from the project config, the metrics log), so every control character (ESC, OSC,
 * C1, bidi) is escaped visibly before it reaches a terminal — or the model, which reads the same
 * output through a slash command. Line breaks and tabs are kept.
 */
export function terminalText(text: string): string {
  return forTerminal(text);
}

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
  for (const note of loaded.diagnostics) process.stderr.write(`${STDERR_PREFIX} config: ${forTerminal(note, { keepLines: false })}\n`);
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
  process.stderr.write(`${STDERR_PREFIX} ${forTerminal(message, { keepLines: false })}\n`);
  return EXIT_FAILURE;
}

/** `{...}\n`: the `--json` output; DEL, C1, separators and bidi controls as `\uXXXX` too (it parses the same). */
export function jsonLine(value: unknown): string {
  return `${jsonForTerminal(JSON.stringify(value, null, 2))}\n`;
}
