// The one table of the modes agents run. Read by the dispatcher (cli.ts), the help
// (commands/hook-cli.ts), the launcher (launcher/start-hook.ts) and the old-Node answer
// (launcher/node-version.ts). No imports: the launcher is compiled from source for Node 10 on every
// run and must stay tiny (build-hook.mjs), so this file may use nothing but plain data.

/**
 * How the dispatcher runs a mode: `turn-end` (the Stop/AfterAgent hook, the mode is the agent),
 * `turn-end-long` (`hook <agent>`), `context` (the context hooks behind context-checkpoint's early
 * check) or `post-tool` (the monitor after every tool call: its own lean bundle).
 */
export type HookModeKind = 'turn-end' | 'turn-end-long' | 'context' | 'post-tool';

/**
 * What the mode answers when the bin cannot run its code (a Node below the minimum): `notice` is one
 * `{"systemMessage":…}` every agent shows the user (once per session, so only at session start),
 * `silent` is no output. Either way the exit code is 0, as with a broken install.
 */
export type HookModeNotice = 'notice' | 'silent';

/** One mode agents run. */
export interface HookModeEntry {
  /** The first argument. */
  readonly name: string;
  readonly kind: HookModeKind;
  /** Whether the next argument is the agent (`session-start <agent>`). */
  readonly takesAgent: boolean;
  /** The arguments after the name, as the help shows them. */
  readonly usage: string;
  /** The help's one-line description. */
  readonly summary: string;
  /**
   * Always true for these modes, stated so the launcher reads it rather than assumes it: an agent
   * reports a hook that exits non-zero on every event, so a broken install (the main bundle cannot
   * load) and a too-old Node exit 0 with empty or valid output. Commands people run exit 1 instead.
   */
  readonly exitZeroWhenBroken: true;
  readonly whenNodeTooOld: HookModeNotice;
  /**
   * The plugin's sh launcher (plugins/agent-checkpoint/hooks/run-hook.sh) starts no Node for this
   * mode while no configuration file exists that could turn context checkpoints on (`skip`): the
   * modes that run on every tool call or prompt and do nothing by default. hook-modes.test.ts holds
   * the script's `case` list to this field; agents/pi-extension.test.ts the Pi extension's
   * `SKIP_WITHOUT_CONFIG_FILE` events (it applies the same rule in-process).
   */
  readonly withoutConfigFile: 'skip' | 'run';
}

/**
 * The agents' turn-end modes, one per agent id (core's `AGENT_IDS`; hook-modes.test.ts keeps the two
 * equal, so an agent added there fails until it is added here).
 */
export const TURN_END_AGENTS: readonly string[] = ['claude', 'gemini', 'codex', 'copilot', 'qwen', 'pi'];

/** The agent ids for people, `claude, gemini, … or pi` (the unknown-agent warnings and the help). */
export const TURN_END_AGENTS_TEXT = `${TURN_END_AGENTS.slice(0, -1).join(', ')} or ${TURN_END_AGENTS[TURN_END_AGENTS.length - 1] ?? ''}`;

const agentArgument = '<agent>';

/** Every mode agents run; the turn-end agent modes first. */
export const HOOK_MODE_TABLE: readonly HookModeEntry[] = [
  ...TURN_END_AGENTS.map(
    (agent): HookModeEntry => ({
      name: agent,
      kind: 'turn-end',
      takesAgent: false,
      usage: '[--debug]',
      summary: `the turn-end hook of ${agent}: reads the payload on stdin`,
      exitZeroWhenBroken: true,
      whenNodeTooOld: 'silent',
      withoutConfigFile: 'run',
    }),
  ),
  { name: 'hook', kind: 'turn-end-long', takesAgent: true, usage: `${agentArgument} [--debug]`, summary: 'the turn-end hook, long form', exitZeroWhenBroken: true, whenNodeTooOld: 'silent', withoutConfigFile: 'run' },
  { name: 'session-start', kind: 'context', takesAgent: true, usage: `${agentArgument} [--debug]`, summary: 'SessionStart hook: inject the latest handoff once', exitZeroWhenBroken: true, whenNodeTooOld: 'notice', withoutConfigFile: 'run' },
  { name: 'pre-compact', kind: 'context', takesAgent: true, usage: `${agentArgument} [--debug]`, summary: 'PreCompact/PreCompress hook: write a handoff', exitZeroWhenBroken: true, whenNodeTooOld: 'silent', withoutConfigFile: 'run' },
  { name: 'prompt-submit', kind: 'context', takesAgent: true, usage: `${agentArgument} [--debug]`, summary: 'UserPromptSubmit/BeforeAgent hook: task estimate warning', exitZeroWhenBroken: true, whenNodeTooOld: 'silent', withoutConfigFile: 'skip' },
  { name: 'post-tool', kind: 'post-tool', takesAgent: true, usage: `${agentArgument} [--debug]`, summary: 'PostToolUse/AfterTool hook: the context monitor', exitZeroWhenBroken: true, whenNodeTooOld: 'silent', withoutConfigFile: 'skip' },
  { name: 'statusline', kind: 'context', takesAgent: false, usage: '', summary: 'Claude Code status line: [CTX: … L2] [CKPT: …]', exitZeroWhenBroken: true, whenNodeTooOld: 'silent', withoutConfigFile: 'run' },
];

/** The mode named by a first argument, or undefined (a command, or nothing agents run). */
export function hookModeOf(first: string | undefined): HookModeEntry | undefined {
  for (const entry of HOOK_MODE_TABLE) if (entry.name === first) return entry;
  return undefined;
}

/**
 * The help's list of the hook modes, one line each; the turn-end agent modes share one line.
 * Columns are aligned to the widest usage.
 */
export function hookModeHelpLines(bin: string): string[] {
  const rows: Array<readonly [string, string]> = [[`${bin} <${TURN_END_AGENTS.join('|')}> [--debug]`, 'turn-end hook: reads the payload on stdin']];
  for (const entry of HOOK_MODE_TABLE) {
    if (entry.kind === 'turn-end') continue;
    rows.push([`${bin} ${entry.name}${entry.usage === '' ? '' : ` ${entry.usage}`}`, entry.summary]);
  }
  const width = Math.max(...rows.map(([usage]) => usage.length)) + 3;
  return rows.map(([usage, summary]) => `  ${usage.padEnd(width)}${summary}`);
}
