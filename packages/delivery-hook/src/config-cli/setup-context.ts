import type { TerminalStyle } from '@agent-checkpoint/setup-kit';

/** What the configuration commands (`init`, `config`, `presets`) need from the process (temp dirs in tests). */
export interface SetupContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory the command works for (the current directory; `--cwd` is resolved against it). */
  readonly cwd: string;
  readonly write: (text: string) => Promise<void>;
  readonly writeError: (text: string) => void;
  readonly style: TerminalStyle;
  /** The command-line tool as a person runs it on this route (commands/run-setup-command.ts); default `agent-checkpoint-hook`. */
  readonly tool?: string;
}
