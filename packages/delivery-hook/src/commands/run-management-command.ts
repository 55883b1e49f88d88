import { parseArgs } from 'node:util';
import {
  AGENT_IDS,
  DISABLE_ENV,
  isTruthyEnv,
  offSwitchPath,
  readOffSwitch,
  readSessionState,
  resolveStateDir,
  sessionStatePath,
  setOffSwitch,
  type OffSwitchScope,
} from '@agent-checkpoint/core';
import { STDERR_PREFIX } from '../debug-log.ts';

declare const __AGENT_CHECKPOINT_VERSION__: string | undefined;

const USAGE = `Usage:
  agent-checkpoint-hook <claude|gemini|codex> [--debug]   hook entry: reads the payload on stdin
  agent-checkpoint-hook off (--session <id> | --all)       turn checkpoints off
  agent-checkpoint-hook on  (--session <id> | --all)       turn them back on
  agent-checkpoint-hook status [--session <id>] [--json]  show switches and loop-guard state
  agent-checkpoint-hook install --agent <a|all> [--scope user|project] [--dry-run] [--print]
  agent-checkpoint-hook uninstall --agent <a|all> [--scope user|project] [--dry-run]
  agent-checkpoint-hook doctor [--cwd DIR] [--json]         check the set-up, with a fix per finding
  agent-checkpoint-hook explain --agent <a> [--transcript F] [--json]   why a turn would be checkpointed
  agent-checkpoint-hook trust [PATH] | --revoke [PATH] | --list   let a project file's commands apply
  agent-checkpoint-hook session-start <agent>              SessionStart hook: inject the latest handoff once
  agent-checkpoint-hook pre-compact <agent>                PreCompact/PreCompress hook: write a handoff
  agent-checkpoint-hook statusline                         Claude Code status line: [CTX: … L2] [CKPT: …]
  agent-checkpoint-hook resume-prompt [--cwd DIR] [--max-age-hours N]   PROMPT.md resume section
  agent-checkpoint-hook state <load|save|update-phase|complete|resume> --command <name> …   phase state
  (context features: docs/context-checkpoints.md)

Environment:
  AGENT_CHECKPOINT_DISABLE=1            checkpoints off everywhere
  AGENT_CHECKPOINT_DEBUG=1              log decisions to stderr and <state dir>/debug.log
  AGENT_CHECKPOINT_STATE_DIR=<dir>      state directory (default $XDG_STATE_HOME/agent-checkpoint)
  AGENT_CHECKPOINT_HOOK_DEADLINE_MS=<n> overall hook deadline (default 8000)
`;

/** Exit code for usage errors (the hook entry itself always exits 0). */
const USAGE_ERROR = 2;

/**
 * `off`, `on`, `status`, `help`, `version`. Management commands talk to a person: they may exit non-zero
 * on usage errors. Output goes through `write` (the guarded stdout).
 */
export async function runManagementCommand(
  command: string,
  args: readonly string[],
  write: (text: string) => Promise<void>,
): Promise<number> {
  const env = process.env;
  switch (command) {
    case 'help':
    case '--help':
    case '-h':
      await write(USAGE);
      return 0;
    case 'version':
    case '--version':
    case '-v':
      await write(`${typeof __AGENT_CHECKPOINT_VERSION__ === 'string' ? __AGENT_CHECKPOINT_VERSION__ : 'dev'}\n`);
      return 0;
    case 'off':
    case 'on':
      return switchCommand(command, args, env, write);
    case 'status':
      return statusCommand(args, env, write);
    case 'install':
    case 'uninstall':
    case 'doctor':
    case 'explain':
    case 'trust':
      return (await import('./run-setup-command.ts')).runSetupCommand(command, args, write);
    default:
      return usageError(`unknown command ${JSON.stringify(command)}`);
  }
}

async function switchCommand(
  command: 'off' | 'on',
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  write: (text: string) => Promise<void>,
): Promise<number> {
  const parsed = parse(args, { session: { type: 'string' }, all: { type: 'boolean' } });
  if (parsed === undefined) return USAGE_ERROR;
  const session = parsed.session as string | undefined;
  const all = parsed.all === true;
  if ((session === undefined) === !all) return usageError(`${command} needs exactly one of --session <id> or --all`);
  if (session === '') return usageError('--session needs a non-empty id');
  const scope: OffSwitchScope = session === undefined ? { kind: 'all' } : { kind: 'session', sessionId: session };
  const stateDir = resolveStateDir({ env });
  await setOffSwitch({ stateDir, scope, off: command === 'off' });
  const target = scope.kind === 'all' ? 'all sessions' : `session ${scope.sessionId}`;
  let note = '';
  if (command === 'on' && isTruthyEnv(env[DISABLE_ENV])) note = ` (but ${DISABLE_ENV} is set, which still turns them off)`;
  await write(`Checkpoints ${command === 'off' ? 'off' : 'on'} for ${target}${note}.\n`);
  return 0;
}

async function statusCommand(args: readonly string[], env: NodeJS.ProcessEnv, write: (text: string) => Promise<void>): Promise<number> {
  const parsed = parse(args, { session: { type: 'string' }, json: { type: 'boolean' } });
  if (parsed === undefined) return USAGE_ERROR;
  const session = parsed.session as string | undefined;
  const stateDir = resolveStateDir({ env });
  const envSwitch = isTruthyEnv(env[DISABLE_ENV]);
  const all = await readOffSwitch({ stateDir, env: {} });
  const sessionSwitch = session === undefined ? undefined : await readOffSwitch({ stateDir, sessionId: session, env: {} });
  const sessionOff = sessionSwitch?.off === true && sessionSwitch.source === 'session';
  const states =
    session === undefined
      ? []
      : (
          await Promise.all(
            AGENT_IDS.map(async (agent) => ({ agent, path: sessionStatePath({ stateDir, agent, sessionId: session }), ...(await readSessionState({ stateDir, agent, sessionId: session })) })),
          )
        ).filter((s) => s.state.turns.length > 0 || s.diagnostics.length > 0);

  if (parsed.json === true) {
    await write(
      `${JSON.stringify(
        {
          stateDir,
          env: { [DISABLE_ENV]: env[DISABLE_ENV] ?? null, off: envSwitch },
          all: { off: all.off, path: offSwitchPath(stateDir, { kind: 'all' }) },
          ...(session === undefined
            ? {}
            : {
                session: {
                  id: session,
                  off: sessionOff,
                  path: offSwitchPath(stateDir, { kind: 'session', sessionId: session }),
                  states: states.map((s) => ({ agent: s.agent, path: s.path, state: s.state, diagnostics: s.diagnostics })),
                },
              }),
        },
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  const lines = [
    `state directory: ${stateDir}`,
    `${DISABLE_ENV}: ${envSwitch ? `set (${env[DISABLE_ENV] ?? ''}): checkpoints off everywhere` : 'not set'}`,
    `all sessions: ${all.off ? 'off (agent-checkpoint-hook on --all to turn them on)' : 'on'}`,
  ];
  if (session !== undefined) {
    lines.push(`session ${session}: ${sessionOff ? `off (agent-checkpoint-hook on --session ${session} to turn it on)` : 'on'}`);
    if (states.length === 0) lines.push('  no checkpoint delivered in this session yet');
    for (const { agent, state, diagnostics } of states) {
      lines.push(`  ${agent}: last checkpoint ${state.lastCheckpointAt ?? 'never'}`);
      for (const turn of state.turns.slice(-5)) lines.push(`    turn ${turn.turnId}: ${turn.blocks} checkpoint(s), last ${turn.lastBlockAt}`);
      for (const note of diagnostics) lines.push(`    ${note}`);
    }
  }
  await write(`${lines.join('\n')}\n`);
  return 0;
}

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

function parse(args: readonly string[], options: OptionSpec): Record<string, string | boolean | undefined> | undefined {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: false, strict: true }).values as Record<string, string | boolean | undefined>;
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error));
    return undefined;
  }
}

function usageError(message: string): number {
  process.stderr.write(`${STDERR_PREFIX} ${message}\n\n${USAGE}`);
  return USAGE_ERROR;
}
