import { stat } from 'node:fs/promises';
import {
  AGENT_IDS,
  DISABLE_ENV,
  findProjectRoot,
  forShellArg,
  isTruthyEnv,
  offSwitchPath,
  offSwitchPaths,
  readOffSwitch,
  readSessionState,
  resolveStateDir,
  sessionStatePath,
  setOffSwitch,
  settleSwitchedOff,
  type AgentId,
  type OffSwitchScope,
} from '@agent-checkpoint/core';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '@agent-checkpoint/setup-kit';
import { STDERR_PREFIX } from '../debug-log.ts';
import { chooseCommandCwd, currentDirectory } from '../run-cwd.ts';
import { defaultHookProgram } from '../install/hook-command.ts';
import { pluginToolBeside, terminalToolOf } from '../route-commands.ts';

/** Options of `off` / `on`, as commander parsed them. */
export interface SwitchOptions {
  readonly session?: string;
  readonly current?: boolean;
  readonly project?: boolean;
  readonly all?: boolean;
  readonly agent?: AgentId;
  readonly cwd?: string;
  readonly json?: boolean;
}

/** Options of `status`. */
export interface StatusOptions {
  readonly session?: string;
  readonly cwd?: string;
  readonly json?: boolean;
}

type Write = (text: string) => Promise<void>;

/**
 * `off` / `on`: one switch, chosen by exactly one of `--session <id>`, `--current` (the newest
 * session of any agent — or `--agent` — that ran in this directory), `--project` (every session in
 * the repository of `--cwd`) and `--all`. Every switch is a file in the state directory
 * (core `off-switches.ts`); nothing is written into the repository.
 */
export async function runSwitchCommand(command: 'off' | 'on', options: SwitchOptions, write: Write, help: () => string): Promise<number> {
  const usageError = (message: string): number => {
    process.stderr.write(`${STDERR_PREFIX} ${message}\n\n${help()}`);
    return EXIT_USAGE;
  };
  const env = process.env;
  const chosen = [options.session !== undefined, options.current === true, options.project === true, options.all === true].filter(Boolean).length;
  if (chosen !== 1) return usageError(`${command} needs exactly one of --session <id>, --current, --project or --all`);
  if (options.session === '') return usageError('--session needs a non-empty id');
  if (options.agent !== undefined && options.current !== true) return usageError('--agent goes with --current');

  let cwd: string | undefined;
  if (options.current === true || options.project === true) {
    const where = chooseCommandCwd(options.cwd, currentDirectory());
    if (where.kind === 'none') return failure(`${command}: ${where.detail}`);
    cwd = where.cwd;
  }
  let scope: OffSwitchScope;
  let found: CurrentSession | undefined;
  if (options.session !== undefined) scope = { kind: 'session', sessionId: options.session };
  else if (options.all === true) scope = { kind: 'all' };
  else if (options.project === true) scope = { kind: 'project', projectRoot: findProjectRoot(cwd!) };
  else {
    found = await findCurrentSession(cwd!, options.agent, env);
    if (found === undefined) {
      const who = options.agent ?? 'any agent';
      return failure(`${command}: no session of ${who} found for ${cwd!}; pass --session <id> (the agent's session id)`);
    }
    scope = { kind: 'session', sessionId: found.sessionId };
  }

  const stateDir = resolveStateDir({ env });
  const path = await setOffSwitch({ stateDir, scope, off: command === 'off' });
  if (command === 'off') {
    // Blocks still waiting for their outcome in this scope were switched off (shown by `report`).
    for (const settled of await settleSwitchedOff({ stateDir, scope })) {
      for (const note of settled.diagnostics) process.stderr.write(`${STDERR_PREFIX} ${note}
`);
    }
  }
  const envStillOff = command === 'on' && isTruthyEnv(env[DISABLE_ENV]);
  if (options.json === true) {
    await write(`${JSON.stringify({ off: command === 'off', scope, path, ...(found === undefined ? {} : { current: found }), envStillOff }, null, 2)}\n`);
    return EXIT_OK;
  }
  const note = envStillOff ? ` (but ${DISABLE_ENV} is set, which still turns them off)` : '';
  const from = found === undefined ? '' : ` (the newest ${found.agent} session here, ${found.transcript})`;
  await write(`Checkpoints ${command === 'off' ? 'off' : 'on'} for ${describeScope(scope)}${from}${note}.\n`);
  return EXIT_OK;
}

/**
 * `status`: the switches that apply (environment, everywhere, this project, a session — `--session`,
 * else the newest session here, the one `off --current` switches) and loop-guard state.
 */
export async function runStatusCommand(options: StatusOptions, write: Write, bundle: string = defaultHookProgram().bundle): Promise<number> {
  const env = process.env;
  // Every follow-up command is named as a person runs it from a terminal on this install's route.
  const tool = terminalToolOf(bundle, env);
  const session = options.session;
  const stateDir = resolveStateDir({ env });
  const where = chooseCommandCwd(options.cwd, currentDirectory());
  if (options.cwd !== undefined && where.kind === 'none') return failure(`status: ${where.detail}`);
  const projectRoot = where.kind === 'ok' ? findProjectRoot(where.cwd) : undefined;
  const envSwitch = isTruthyEnv(env[DISABLE_ENV]);
  const all = await readOffSwitch({ stateDir, env: {} });
  const projectScope: OffSwitchScope | undefined = projectRoot === undefined ? undefined : { kind: 'project', projectRoot };
  const projectOff = projectScope !== undefined && (await isSwitchFile(stateDir, projectScope));
  const sessionScope: OffSwitchScope | undefined = session === undefined ? undefined : { kind: 'session', sessionId: session };
  const sessionOff = sessionScope === undefined ? false : await isSwitchFile(stateDir, sessionScope);
  // Without --session: the session `off --current` would pick here, so its switch shows right after
  // it was set (the project and global lines alone said "on" then).
  const current = session !== undefined || where.kind !== 'ok' ? undefined : await findCurrentSession(where.cwd, undefined, env);
  const currentScope: OffSwitchScope | undefined = current === undefined ? undefined : { kind: 'session', sessionId: current.sessionId };
  const currentOff = currentScope === undefined ? false : await isSwitchFile(stateDir, currentScope);
  const states =
    session === undefined
      ? []
      : (
          await Promise.all(
            AGENT_IDS.map(async (agent) => ({ agent, path: sessionStatePath({ stateDir, agent, sessionId: session }), ...(await readSessionState({ stateDir, agent, sessionId: session })) })),
          )
        ).filter((s) => s.state.turns.length > 0 || s.diagnostics.length > 0);
  const { listInstalls, describeInstalls } = await import('../install/list-installs.ts');
  const installs = listInstalls({ env, cwd: where.kind === 'ok' ? where.cwd : (env['HOME'] ?? '/') });

  if (options.json === true) {
    const report = {
      stateDir,
      env: { [DISABLE_ENV]: env[DISABLE_ENV] ?? null, off: envSwitch },
      all: { off: all.off, path: offSwitchPath(stateDir, { kind: 'all' }) },
      installs: installs.map((v) =>
        v.form === 'settings'
          ? { agent: v.agent, form: 'settings', scope: v.scope, path: v.path, bin: v.bin ?? null }
          : { agent: v.agent, form: v.plugin.form, id: v.plugin.id, enabled: v.plugin.enabled, bin: v.plugin.bin, binPresent: v.plugin.binPresent, source: v.plugin.source },
      ),
      ...(projectScope === undefined || projectRoot === undefined ? {} : { project: { root: projectRoot, off: projectOff, path: offSwitchPath(stateDir, projectScope) } }),
      ...(current === undefined || currentScope === undefined
        ? {}
        : { current: { agent: current.agent, id: current.sessionId, transcript: current.transcript, off: currentOff, path: offSwitchPath(stateDir, currentScope) } }),
      ...(sessionScope === undefined
        ? {}
        : {
            session: {
              id: session,
              off: sessionOff,
              path: offSwitchPath(stateDir, sessionScope),
              states: states.map((s) => ({ agent: s.agent, path: s.path, state: s.state, diagnostics: s.diagnostics })),
            },
          }),
    };
    await write(`${JSON.stringify(report, null, 2)}\n`);
    return EXIT_OK;
  }
  const lines = [
    `state directory: ${stateDir}`,
    `${DISABLE_ENV}: ${envSwitch ? `set (${env[DISABLE_ENV] ?? ''}): checkpoints off everywhere` : 'not set'}`,
    `all sessions: ${all.off ? `off (${tool} on --all to turn them on)` : 'on'}`,
  ];
  // A plugin install: nothing of it is on a terminal's PATH, so say what to run.
  if (pluginToolBeside(bundle) !== undefined) lines.unshift(`command-line tool: ${tool}`);
  if (projectRoot !== undefined) lines.push(`project ${projectRoot}: ${projectOff ? `off (${tool} on --project --cwd ${forShellArg(projectRoot)} to turn it on)` : 'on'}`);
  if (current !== undefined) {
    lines.push(
      `newest session here (${current.agent}) ${current.sessionId}: ${currentOff ? `off (${tool} on --session ${forShellArg(current.sessionId)} to turn it on)` : 'on'}`,
    );
  }
  if (session !== undefined) {
    lines.push(`session ${session}: ${sessionOff ? `off (${tool} on --session ${forShellArg(session)} to turn it on)` : 'on'}`);
    if (states.length === 0) lines.push('  no checkpoint delivered in this session yet');
    for (const { agent, state, diagnostics } of states) {
      lines.push(`  ${agent}: last checkpoint ${state.lastCheckpointAt ?? 'never'}`);
      for (const turn of state.turns.slice(-5)) lines.push(`    turn ${turn.turnId}: ${turn.blocks} checkpoint(s), last ${turn.lastBlockAt}`);
      for (const note of diagnostics) lines.push(`    ${note}`);
    }
  }
  lines.push(...describeInstalls(installs, tool, env));
  await write(`${lines.join('\n')}\n`);
  return EXIT_OK;
}

/** The newest session that ran in a directory, found through its transcript. */
export interface CurrentSession {
  readonly agent: AgentId;
  readonly sessionId: string;
  readonly transcript: string;
}

/**
 * The session whose transcript was written last, among the agents' newest transcripts for `cwd`
 * (each agent profile's latest-transcript lookup, as `explain` uses). Undefined when none is found
 * or its session id cannot be read.
 */
async function findCurrentSession(cwd: string, only: AgentId | undefined, env: Readonly<Record<string, string | undefined>>): Promise<CurrentSession | undefined> {
  const { findLatestTranscript, sessionIdOfTranscript } = await import('../explain/find-latest-transcript.ts');
  const agents = only === undefined ? AGENT_IDS : [only];
  const candidates = await Promise.all(
    agents.map(async (agent) => {
      const transcript = await findLatestTranscript(agent, cwd, env);
      if (transcript === undefined) return undefined;
      const info = await stat(transcript).catch(() => undefined);
      return info === undefined ? undefined : { agent, transcript, mtimeMs: info.mtimeMs };
    }),
  );
  const newest = candidates.filter((c) => c !== undefined).sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
  if (newest === undefined) return undefined;
  const sessionId = await sessionIdOfTranscript(newest.agent, newest.transcript).catch(() => undefined);
  return sessionId === undefined || sessionId === '' ? undefined : { agent: newest.agent, sessionId, transcript: newest.transcript };
}

/** Whether this exact switch is set (not whether checkpoints are off through another one), under any of its keys. */
async function isSwitchFile(stateDir: string, scope: OffSwitchScope): Promise<boolean> {
  for (const path of offSwitchPaths(stateDir, scope)) if ((await stat(path).catch(() => undefined)) !== undefined) return true;
  return false;
}

function describeScope(scope: OffSwitchScope): string {
  switch (scope.kind) {
    case 'all':
      return 'all sessions';
    case 'project':
      return `project ${scope.projectRoot}`;
    case 'session':
      return `session ${scope.sessionId}`;
  }
}

function failure(message: string): number {
  process.stderr.write(`${STDERR_PREFIX} ${message}\n`);
  return EXIT_FAILURE;
}
