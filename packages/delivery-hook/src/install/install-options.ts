import type { AgentId } from '@agent-checkpoint/core/hot-path';

/** `--agent` of install and uninstall: one agent, or all. */
export type AgentChoice = AgentId | 'all';

/** Options of both commands, as commander parses them (commands/hook-cli.ts declares them). */
interface CommonOptions {
  readonly agent: AgentChoice;
  readonly scope: 'user' | 'project';
  readonly cwd?: string;
  readonly dryRun?: boolean;
}

/** `install`: `statusLine` is false with `--no-status-line`. */
export interface InstallOptions extends CommonOptions {
  readonly withContext?: boolean;
  readonly statusLine: boolean;
  readonly print?: boolean;
  /** Install even beside an active plugin or extension of ours (every hook then runs twice). */
  readonly force?: boolean;
}

/** `uninstall`. */
export interface UninstallOptions extends CommonOptions {
  readonly purge?: boolean;
}
