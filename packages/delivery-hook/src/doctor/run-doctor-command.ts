import { access, constants, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  AGENT_IDS,
  configProblems,
  DEFAULT_CONFIG,
  DISABLE_ENV,
  findProjectRoot,
  forShellArg,
  isTruthyEnv,
  loadConfig,
  readOffSwitch,
  resolveStateDir,
  runGit,
  type AgentId,
  type ConfigSource,
} from '@agent-checkpoint/core';
import { cliVersion, doctorExitCode, type DoctorFinding, doctorReport, nodeFinding, renderDoctorReport, type TerminalStyle } from '@agent-checkpoint/setup-kit';
import { findLatestTranscript } from '../explain/find-latest-transcript.ts';
import { profileOf } from '../agents/profiles.ts';
import { defaultHookProgram, type HookProgram } from '../install/hook-command.ts';
import { loadTranscriptReader } from '../load-transcript-reader.ts';
import { checkAgentHooks } from './check-agent-hooks.ts';
import { checkCodeCache } from './check-code-cache.ts';
import { isOnPath, pluginToolBeside, terminalToolOf } from '../route-commands.ts';
import { contextCheckpointSections } from '@agent-checkpoint/context-checkpoint/load';

export interface DoctorCommandContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly write: (text: string) => Promise<void>;
  readonly writeError: (text: string) => void;
  readonly style: TerminalStyle;
  readonly program?: HookProgram;
  /** Told when each check starts and ends (the bin shows it on a terminal's stderr). */
  readonly progress?: (label: string, event: 'start' | 'done') => void;
}

/** The options of `doctor`, as commander parses them (commands/hook-cli.ts declares them). */
export interface DoctorOptions {
  readonly cwd?: string;
  readonly json?: boolean;
}

/** `agent-checkpoint-hook doctor`. */
export async function runDoctorCommand(options: DoctorOptions, context: DoctorCommandContext): Promise<number> {
  const cwd = resolve(context.cwd, options.cwd ?? '.');
  const env = context.env;
  const program = context.program ?? defaultHookProgram();
  const location = { env, cwd };
  // Every fix names the command as a person runs it from a terminal on this install's route.
  const tool = terminalToolOf(program.bundle, env);

  const findings: DoctorFinding[] = [nodeFinding()];
  findings.push(
    (await exists(program.bundle))
      ? { id: 'bundle', status: 'ok', title: `hook bundle ${program.bundle}` }
      : { id: 'bundle', status: 'fail', title: `hook bundle ${program.bundle} is missing`, fix: 'pnpm --filter @agent-checkpoint/delivery-hook build (or reinstall the package)' },
  );

  // Independent checks run at once (the agents' `--version` take seconds); each agent's own chain —
  // version, hooks, newest transcript — runs in order. Findings keep their fixed order.
  const progress = context.progress ?? (() => undefined);
  const track = <T,>(label: string, work: Promise<T>): Promise<T> => {
    progress(label, 'start');
    return work.finally(() => progress(label, 'done'));
  };
  const agentChecks = Promise.all(
    AGENT_IDS.map(async (agent) => {
      const title = profileOf(agent).title;
      const version = await track(`${agent} --version`, cliVersion(agent, env));
      const out: DoctorFinding[] = [];
      if (!version.found) out.push({ id: `${agent}.cli`, status: 'info', title: `${title}: \`${agent}\` is not on PATH` });
      else if (version.error !== undefined) out.push({ id: `${agent}.cli`, status: 'warn', title: `${title}: \`${agent} --version\` failed`, detail: `${version.path}: ${version.error}`, fix: `run \`${agent} --version\` yourself to see why` });
      else out.push({ id: `${agent}.cli`, status: 'ok', title: `${title} ${version.version ?? '(version unknown)'}`, detail: version.path });
      const hooks = await track(`${title} hooks`, checkAgentHooks(agent, location, program, version.found, tool));
      out.push(...hooks.findings);
      const transcript = hooks.registered.length > 0 || hooks.plugins.some((p) => p.enabled) || version.found ? track(`${title} transcript`, checkTranscript(agent, cwd, env, tool)) : undefined;
      return { out, plugins: hooks.plugins, transcript: await transcript };
    }),
  );
  const [agents, config, git, state] = await Promise.all([
    agentChecks,
    track('configuration', checkConfig(cwd, env, tool)),
    track('git', checkGit(cwd, env)),
    track('state directory', checkState(env, cwd, tool)),
  ]);
  for (const agent of agents) findings.push(...agent.out);
  findings.push(...config, git);
  for (const agent of agents) if (agent.transcript !== undefined) findings.push(agent.transcript);
  findings.push(...state);
  findings.push(checkCodeCache(env));
  // The plugins' tools a terminal does not find by name: the running one, and each enabled install's.
  const tools = [pluginToolBeside(program.bundle), ...agents.flatMap((a) => a.plugins.filter((p) => p.enabled).map((p) => pluginToolBeside(p.bin)))];
  const offPath = [...new Set(tools.filter((t) => t !== undefined && !isOnPath(t, env)))];
  if (offPath.length > 0) {
    findings.push({
      id: 'tool',
      status: 'info',
      title: `command-line tool: ${offPath.map((t) => forShellArg(t!)).join(', ')}`,
      detail: 'a plugin or extension install puts it on no PATH but Claude Code\'s Bash tool: run it by this path',
    });
  }

  const report = doctorReport('agent-checkpoint-hook', findings);
  await context.write(options.json === true ? `${JSON.stringify(report, null, 2)}\n` : renderDoctorReport(report, context.style));
  return doctorExitCode(report);
}

async function checkConfig(cwd: string, env: Readonly<Record<string, string | undefined>>, tool: string): Promise<DoctorFinding[]> {
  const loaded = await loadConfig({ cwd, env, cacheDir: false, sections: contextCheckpointSections });
  const sources = loaded.config.sources.map(describeSource);
  const findings: DoctorFinding[] = [];
  // The trust line is a finding of its own below, not "a file is ignored because of errors".
  const errors = loaded.diagnostics.filter((d) => d !== loaded.untrusted?.diagnostic);
  if (errors.length > 0) {
    findings.push({
      id: 'config',
      status: 'fail',
      title: 'configuration: a file is ignored because of errors',
      detail: errors.join('\n'),
      fix: 'fix the file (docs/configuration.md); until then the rest of the configuration applies without it',
    });
  } else {
    findings.push({ id: 'config', status: 'ok', title: `configuration: ${sources.join(' → ')}`, detail: `project root ${loaded.projectRoot}` });
  }
  const presets = loaded.config.sources.filter((s) => s.kind === 'preset');
  findings.push({
    id: 'config.presets',
    status: 'info',
    title: `active presets: ${presets.length === 0 ? 'none' : presets.map((p) => `${p.name} (${p.detected === true ? 'detected' : 'named in extends'})`).join(', ')}`,
    detail:
      loaded.config.categories.length === 0
        ? 'no file category: no change ever needs a follow-up action'
        : loaded.config.categories.map((c) => `category ${c.id} ← ${c.source === undefined ? 'unknown' : describeSource(c.source)}`).join('\n'),
  });
  if (loaded.untrusted !== undefined) {
    const u = loaded.untrusted;
    findings.push({
      id: 'config.trust',
      status: 'warn',
      title: `untrusted project config${u.state === 'changed' ? ' (changed since it was trusted)' : ''}: these keys ignored: ${u.ignoredKeys.join(', ')}, run \`${tool} trust\``,
      detail: `${u.path}${u.realPath !== undefined && u.realPath !== u.path ? ` → ${u.realPath}` : ''}\nCommands, write paths and push from a project file apply only once you trusted that exact file.`,
      fix: `review the file, then run: ${tool} trust ${forShellArg(u.path)}`,
    });
  }
  const problems = configProblems(loaded.config);
  if (problems.length > 0) findings.push({ id: 'config.evidence', status: 'warn', title: 'configuration: evidence that can never match', detail: problems.join('\n'), fix: 'correct the evidence strings (docs/heuristics.md#evidence)' });
  if (!loaded.config.enabled) findings.push({ id: 'config.enabled', status: 'warn', title: 'configuration: "enabled": false — checkpoints are off in this project', fix: 'remove "enabled": false' });
  if (loaded.config.messages.prefix !== DEFAULT_CONFIG.messages?.prefix && loaded.config.messages.prefix.trim() === '') {
    findings.push({ id: 'config.prefix', status: 'warn', title: 'configuration: messages.prefix is empty', detail: 'Readers recognise our own messages by the prefix; without it a checkpoint can look like a new user turn.', fix: 'set a distinctive prefix' });
  }
  return findings;
}

function describeSource(s: ConfigSource): string {
  return s.kind === 'preset' ? `preset ${s.name}${s.detected === true ? ' (detected)' : ''}` : s.kind === 'default' ? 'built-in defaults' : `${s.kind} ${s.name}`;
}

async function checkTranscript(agent: AgentId, cwd: string, env: Readonly<Record<string, string | undefined>>, tool: string): Promise<DoctorFinding> {
  const title = profileOf(agent).title;
  const path = await findLatestTranscript(agent, cwd, env);
  if (path === undefined) return { id: `${agent}.transcript`, status: 'info', title: `${title}: no session transcript for ${cwd} yet` };
  const reader = await loadTranscriptReader(agent);
  const loaded = await loadConfig({ cwd, env, sections: contextCheckpointSections });
  const timeline = await reader.readTurn({ transcriptPath: path, checkpointPrefix: loaded.config.messages.prefix, checkpointMessages: loaded.config.messages, maxBytes: loaded.config.transcriptMaxBytes, flushWaitMs: 0, signal: AbortSignal.timeout(10_000) });
  const notes = timeline.diagnostics.map((d) => `${d.level} ${d.code}: ${d.message}`);
  const read = timeline.readStats === undefined ? '' : `, read ${timeline.readStats.bytesRead} of ${timeline.readStats.fileBytes} bytes`;
  if (!timeline.hasData) {
    return {
      id: `${agent}.transcript`,
      status: 'warn',
      title: `${title}: the newest transcript has no readable turn`,
      detail: [path, ...notes].join('\n'),
      fix: `${tool} explain --agent ${agent} --transcript ${forShellArg(path)} shows what the checkpoint would do with it; report the diagnostic if the CLI version is newer than the tested one`,
    };
  }
  return {
    id: `${agent}.transcript`,
    status: 'ok',
    title: `${title}: the newest transcript is readable (last turn: ${timeline.calls.length} tool call${timeline.calls.length === 1 ? '' : 's'}${read})`,
    detail: [path, ...(timeline.cliVersion === undefined ? [] : [`recorded by ${agent} ${timeline.cliVersion}`]), ...notes].join('\n'),
  };
}

async function checkGit(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<DoctorFinding> {
  // Through core's runner, like every git call: the repository's config runs nothing, GIT_DIR is scrubbed.
  const result = await runGit(['rev-parse', '--show-toplevel'], { cwd, env, timeoutMs: 5000 });
  if (result.kind === 'exited' && result.code === 0) return { id: 'git', status: 'ok', title: `git repository ${result.stdout.toString('utf8').trim()}` };
  if (result.kind === 'spawn-error' && result.code === 'ENOENT') {
    return { id: 'git', status: 'fail', title: 'git is not installed (or not on PATH)', detail: 'Without git there is no file axis: every checkpoint falls back to the generic message.', fix: 'install git' };
  }
  const stderr = result.kind === 'exited' || result.kind === 'killed' ? result.stderr : result.kind;
  return { id: 'git', status: 'info', title: `${cwd} is not inside a git repository`, detail: `${stderr.trim().split('\n')[0] ?? ''}\nCheckpoints stay silent outside repositories.` };
}

async function checkState(env: Readonly<Record<string, string | undefined>>, cwd: string, tool: string): Promise<DoctorFinding[]> {
  const findings: DoctorFinding[] = [];
  let stateDir: string;
  try {
    stateDir = resolveStateDir({ env });
  } catch (error) {
    return [{ id: 'state', status: 'fail', title: 'cannot resolve the state directory', detail: (error as Error).message, fix: 'set AGENT_CHECKPOINT_STATE_DIR to an absolute path' }];
  }
  try {
    const info = await stat(stateDir);
    await access(stateDir, constants.W_OK);
    findings.push({ id: 'state', status: 'ok', title: `state directory ${stateDir}`, ...((info.mode & 0o077) !== 0 ? { detail: `mode ${(info.mode & 0o777).toString(8)}: readable by others (the hook creates it 0700)` } : {}) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    findings.push(
      code === 'ENOENT'
        ? { id: 'state', status: 'ok', title: `state directory ${stateDir} (created on the first checkpoint)` }
        : { id: 'state', status: 'fail', title: `state directory ${stateDir} is not writable`, detail: 'Without state the loop guard cannot record a block, so every stop passes.', fix: `fix its permissions, or set AGENT_CHECKPOINT_STATE_DIR` },
    );
  }
  if (isTruthyEnv(env[DISABLE_ENV])) findings.push({ id: 'switch.env', status: 'warn', title: `${DISABLE_ENV} is set in this environment: checkpoints are off`, fix: `unset ${DISABLE_ENV}` });
  const all = await readOffSwitch({ stateDir, env: {} });
  if (all.off) findings.push({ id: 'switch.all', status: 'warn', title: 'checkpoints are switched off for all sessions', detail: all.detail, fix: `${tool} on --all` });
  const projectRoot = findProjectRoot(cwd);
  const project = await readOffSwitch({ stateDir, projectRoot, env: {} });
  if (project.off && project.source === 'project') {
    findings.push({ id: 'switch.project', status: 'warn', title: `checkpoints are switched off for the project ${projectRoot}`, detail: project.detail, fix: `${tool} on --project --cwd ${forShellArg(projectRoot)}` });
  }
  return findings;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
