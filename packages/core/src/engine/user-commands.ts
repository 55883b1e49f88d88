/**
 * The commands a person is told to run, spelled the way that works where the hook runs. Core stays
 * route-neutral: it only substitutes these values; the delivery route decides them (a settings
 * install has `agent-checkpoint-hook` on the PATH, a plugin or extension has its own command form).
 */
export interface UserCommands {
  /** Turns checkpoints off for one session; `{sessionId}` stands for the session id as one shell word. */
  readonly offSession: string;
  /** Checks the set-up. */
  readonly doctor: string;
  /** Trusts this project's configuration file. */
  readonly trust: string;
  /**
   * Writes a handoff now, as the agent itself runs it with its shell tool (the monitor's and the
   * context line's "run … to checkpoint"): a message to the model names this form, which works on
   * every route, where a slash command exists on some only and a model cannot type one.
   */
  readonly agentCheckpoint: string;
}

/** The command-line tool on the PATH: what a settings install (`agent-checkpoint-hook install`) gives. */
export const CLI_USER_COMMANDS: UserCommands = {
  offSession: 'agent-checkpoint-hook off --session {sessionId}',
  doctor: 'agent-checkpoint-hook doctor',
  trust: 'agent-checkpoint-hook trust',
  agentCheckpoint: 'agent-checkpoint-hook checkpoint',
};
