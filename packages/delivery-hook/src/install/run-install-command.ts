import { AGENT_IDS, resolveStateDir, type AgentId } from '@agent-checkpoint/core';
import type { InstallOptions, UninstallOptions } from './install-options.ts';
import { existsSync } from 'node:fs';
import { commitInstall, commitUninstall, describeFileFailure, EXIT_FAILURE, EXIT_OK, type FileChange, findExecutable, isNoop, planUninstall, readInstallRecord, readOptionalFile, renderDiff, SettingsFileError, type TerminalStyle, writeSettings } from '@agent-checkpoint/setup-kit';
import { findOtherMentions, findOurHookEntries, groupFor, handlerFor, installHookEntries, uninstallHookEntries } from './edit-agent-hooks.ts';
import { addStatusLineIfNone, statusLineFor } from './claude-statusline.ts';
import { profileOf } from '../agents/profiles.ts';
import { entriesToInstall } from './hook-entries.ts';
import type { HookEntrySpec } from './hook-entry-spec.ts';
import { defaultHookProgram, type HookProgram } from './hook-command.ts';
import { codexFileTrustKey, isOurPluginTrustKey, removeTrustEntries } from './codex-trust-entries.ts';
import { activePluginInstalls, findPluginInstalls } from './plugin-installs.ts';
import { codexHome } from '../agents/codex-profile.ts';
import type { InstallScope } from './install-scope.ts';
import { agentHomeDir, homeOf, settingsPath, type LocationContext } from './settings-locations.ts';
import { removeCompanionFiles, syncCompanionFiles } from './companion-files.ts';

/** Everything the command needs from its surroundings (the real process in the bin, temp dirs in tests). */
export interface InstallCommandContext extends LocationContext {
  readonly write: (text: string) => Promise<void>;
  readonly writeError: (text: string) => void;
  readonly style: TerminalStyle;
  /** The node binary and hook bundle to register (default: this process's). */
  readonly program?: HookProgram;
  readonly now?: Date;
  /** The command-line tool as a person runs it on this route (commands/run-setup-command.ts); default `agent-checkpoint-hook`. */
  readonly tool?: string;
}

/** What to run: install or uninstall, with its options as commander parsed them (commands/hook-cli.ts). */
export type InstallRequest = { readonly command: 'install'; readonly options: InstallOptions } | { readonly command: 'uninstall'; readonly options: UninstallOptions };

/** `install` and `uninstall`. */
export async function runInstallCommand(request: InstallRequest, context: InstallCommandContext): Promise<number> {
  const { command, options } = request;
  const install = request.command === 'install' ? request.options : undefined;
  const purgeRequested = request.command === 'uninstall' && request.options.purge === true;
  const located: LocationContext = { env: context.env, cwd: options.cwd ?? context.cwd, ...(context.home === undefined ? {} : { home: context.home }) };
  const features: 'context'[] = install?.withContext === true ? ['context'] : [];
  const run: Run = { ...context, ...located, scope: options.scope, dryRun: options.dryRun === true, features, statusLine: install?.statusLine !== false };

  const agents = options.agent === 'all' ? (command === 'install' ? presentAgents(located) : [...AGENT_IDS]) : [options.agent];
  if (options.agent === 'all' && command === 'install') {
    const skipped = AGENT_IDS.filter((a) => !agents.includes(a));
    if (skipped.length > 0) {
      await context.write(context.style.dim(`Skipping ${skipped.map((a) => profileOf(a).title).join(', ')}: not found (no config directory, not on PATH). Use --agent <name> to install anyway.\n`));
    }
    if (agents.length === 0) {
      await context.write('No agent found. Install one (Claude Code, Gemini CLI, Codex CLI) or name it with --agent.\n');
      return EXIT_FAILURE;
    }
  }

  const program = context.program ?? defaultHookProgram();
  if (install?.print === true) {
    for (const agent of agents) await context.write(printSnippet(agent, run, program));
    return EXIT_OK;
  }
  if (command === 'install') {
    for (const [what, path] of [
      ['Node binary', program.node],
      ['hook bundle', program.bundle],
    ] as const) {
      if (!existsSync(path)) {
        context.writeError(`agent-checkpoint: the ${what} ${path} does not exist; build it first (pnpm --filter @agent-checkpoint/delivery-hook build)\n`);
        return EXIT_FAILURE;
      }
    }
  }

  let code = EXIT_OK;
  for (const agent of agents) {
    // The agent's own install of ours (plugin, extension) already registers every hook: a second copy runs each twice.
    const plugins = activePluginInstalls(agent, located);
    if (command === 'install' && plugins.length > 0 && install?.force !== true) {
      const plugin = plugins[0]!;
      context.writeError(
        `agent-checkpoint: ${profileOf(agent).title}: not installing: the ${plugin.form === 'gemini-extension' ? 'extension' : 'plugin'} ${plugin.id} is installed and enabled, and runs ${plugin.bin}; a settings install beside it would run every hook twice. Check it with ${context.tool ?? 'agent-checkpoint-hook'} doctor; to switch to the settings install, first: ${plugin.removeCommand} (or add --force to install both)\n`,
      );
      code = EXIT_FAILURE;
      continue;
    }
    const result = await changeOne(command, agent, run, program);
    if (result !== EXIT_OK) code = result;
    if (command === 'uninstall') {
      for (const plugin of plugins) {
        await context.write(
          context.style.dim(`    the ${profileOf(agent).title} ${plugin.form === 'gemini-extension' ? 'extension' : 'plugin'} ${plugin.id} is still installed (the agent's own install, not a settings entry); remove it with: ${plugin.removeCommand}\n`),
        );
      }
    }
  }
  if (purgeRequested) {
    // After the hooks: uninstall needs the install records (in the state directory) to restore files.
    if (code !== EXIT_OK) {
      context.writeError('agent-checkpoint: uninstall: --purge skipped: a hook could not be removed, and its install record is needed to retry\n');
      return code;
    }
    const plugins = AGENT_IDS.flatMap((agent) => findPluginInstalls(agent, located));
    if (plugins.length > 0) {
      const list = plugins.map((p) => `  ${p.id} (${profileOf(p.agent).title}${p.enabled ? '' : ', disabled'}): ${p.removeCommand}`).join('\n');
      context.writeError(`agent-checkpoint: uninstall --purge: not purging: these installs of agent-checkpoint are the agents' own and would recreate the state; remove them first, then run uninstall --purge again:\n${list}\n`);
      return EXIT_FAILURE;
    }
    code = await purgeOurFiles(run, agents.map((agent) => settingsPath(agent, run.scope, run)));
    if (code === EXIT_OK && agents.some((agent) => profileOf(agent).hooksHaveTrustEntries)) code = await removeCodexTrust(run, 'the Codex trust entries of our plugin hooks', isOurPluginTrustKey);
  }
  if (command === 'install' && !run.dryRun && code === EXIT_OK) {
    const tool = context.tool ?? 'agent-checkpoint-hook';
    await context.write(
      `\nNext: start a new agent session (hooks are read at startup). Check the set-up with ${context.style.bold(`${tool} doctor`)};\nsee why a turn would be checkpointed with ${context.style.bold(`${tool} explain --agent ${agents[0] ?? 'claude'}`)}.\n`,
    );
  }
  return code;
}

/** `uninstall --purge`: remove our state and caches (see purge-our-files.ts), listing each. */
async function purgeOurFiles(run: Run, handled: readonly string[]): Promise<number> {
  const { purge, purgeTargets, remainingInstalls } = await import('./purge-our-files.ts');
  const targets = purgeTargets(run.env);
  const s = run.style;
  // A dry run has not removed this uninstall's own records yet.
  const remaining = remainingInstalls(run.env).filter((r) => !handled.includes(r.path));
  if (remaining.length > 0) {
    const list = remaining.map((r) => `  ${r.path}  (${r.by})`).join('\n');
    run.writeError(`agent-checkpoint: uninstall --purge: not purging: these files were changed by another install, and the state directory holds what restores them; uninstall them first (agent-checkpoint-tmux uninstall, uninstall --scope project --cwd <repo>):\n${list}\n`);
    return EXIT_FAILURE;
  }
  for (const t of targets) {
    // A directory the user chose loses only our files in it (purge-our-files.ts).
    const ours = t.scope.kind === 'our-entries' ? ' our files in' : '';
    const verb = !t.exists ? 'nothing at' : run.dryRun ? `would remove${ours}` : `removed${ours}`;
    await run.write(`${t.exists ? s.green('✓') : s.dim('-')} ${t.what}: ${verb} ${t.path}\n`);
  }
  if (run.dryRun) return EXIT_OK;
  const { problems, notes } = await purge(targets, run.env);
  for (const note of notes) await run.write(`  ${note}\n`);
  for (const problem of problems) run.writeError(`agent-checkpoint: uninstall --purge: ${problem}\n`);
  if (problems.length === 0) await run.write(s.dim('Kept: your configuration files (user config.json, .agent-checkpoint.json) and handoff documents.\n'));
  return problems.length === 0 ? EXIT_OK : EXIT_FAILURE;
}

type Run = InstallCommandContext &
  LocationContext & {
    readonly scope: InstallScope;
    readonly dryRun: boolean;
    readonly features: readonly 'context'[];
    /** Claude Code: add our status line when the settings have none (false: `--no-status-line`). */
    readonly statusLine: boolean;
  };

/**
 * One agent's install or uninstall. A settings path holding something we must not read or replace
 * (FIFO, device, directory, symlink loop, immutable or read-only file…) ends in one line on stderr
 * and exit 1, with the file as it was: nothing past the refused step is written.
 */
async function changeOne(command: 'install' | 'uninstall', agent: AgentId, run: Run, program: HookProgram): Promise<number> {
  try {
    return command === 'install' ? await installOne(agent, run, program) : await uninstallOne(agent, run, program);
  } catch (error) {
    const untouched = error instanceof SettingsFileError ? ' Nothing was changed.' : '';
    run.writeError(`agent-checkpoint: ${profileOf(agent).title} (${run.scope}): ${command} failed: ${describeFileFailure(error)}.${untouched}\n`);
    return EXIT_FAILURE;
  }
}

async function installOne(agent: AgentId, run: Run, program: HookProgram): Promise<number> {
  const path = settingsPath(agent, run.scope, run);
  const title = `${profileOf(agent).title} (${run.scope})`;
  const stateDir = resolveStateDir({ env: run.env });
  const before = await readOptionalFile(path);
  const recorded = (await readInstallRecord(stateDir, path))?.commands ?? [];
  const wanted: HookEntrySpec[] = entriesToInstall(agent, run.features);
  const edited = installHookEntries(before?.toString('utf8'), agent, wanted, program, recorded);
  if (!edited.ok) {
    run.writeError(`agent-checkpoint: ${title}: cannot edit ${path}: ${edited.error}. Nothing was changed; fix the file, or add the entry by hand (install --agent ${agent} --print).\n`);
    return EXIT_FAILURE;
  }
  // Claude Code: our status line too, only when the settings have none (never replacing the user's).
  const statusLine = profileOf(agent).hasStatusLine && run.statusLine ? addStatusLineIfNone(edited.text, program) : { text: edited.text, added: false };
  const change: FileChange = { path, before, after: Buffer.from(statusLine.text, 'utf8') };
  const s = run.style;
  const entries = wanted.map((e) => `${e.event} → ${handlerFor(agent, e, program)['command'] as string}`);
  if (statusLine.added) entries.push(`statusLine → ${statusLineFor(program).command}`);
  // Commands of the user's that mention our hook (a wrapper script…) are never ours to replace: say so.
  for (const other of findOtherMentions(edited.text, recorded)) {
    await run.write(
      s.dim(`    left your own ${other.event} command as it is: ${other.command}\n    (it mentions agent-checkpoint-hook; if it runs the hook too, each turn runs it twice — still one checkpoint per turn)\n`),
    );
  }
  // The agent's own runner of the hooks file (Pi's extension), next to it.
  for (const c of await syncCompanionFiles(profileOf(agent).companionFiles?.(path, program) ?? [], run.dryRun)) {
    if (c.action !== 'unchanged') await run.write(`${s.green('✓')} ${title}: ${c.action === 'written' ? 'wrote' : 'would write'} ${c.path}\n`);
  }
  if (isNoop(change)) {
    await run.write(`${s.green('✓')} ${title}: already registered in ${path} (unchanged)\n`);
    for (const line of entries) await run.write(`    ${line}\n`);
    return EXIT_OK;
  }
  if (run.dryRun) {
    await run.write(`${s.bold(title)}: would ${before === undefined ? 'create' : 'change'} ${path}\n${renderDiff(path, before?.toString('utf8'), statusLine.text, s)}\n`);
    if (statusLine.added) await run.write(`    ${STATUS_LINE_NOTE('would add')}\n`);
    return EXIT_OK;
  }
  const result = await commitInstall({
    stateDir,
    change,
    hadOurEntries: edited.hadOurEntries,
    by: `agent-checkpoint-hook install --agent ${agent} --scope ${run.scope}`,
    commands: [...findOurHookEntries(statusLine.text, recorded).map((f) => f.command), ...(statusLine.added ? [statusLineFor(program).command] : [])],
    ...(run.now ? { now: run.now } : {}),
  });
  await run.write(`${s.green('✓')} ${title}: ${edited.hadOurEntries ? 'updated the hook in' : before === undefined ? 'created' : 'registered the hook in'} ${path}\n`);
  for (const line of entries) await run.write(`    ${line}\n`);
  if (statusLine.added) await run.write(`    ${STATUS_LINE_NOTE('added')}\n`);
  if (result.backup !== undefined) await run.write(s.dim(`    previous version kept at ${result.backup}\n`));
  for (const note of afterInstallNotes(agent, run.scope)) await run.write(`    ${note}\n`);
  return EXIT_OK;
}

/** The line install prints when it adds Claude Code's status line (never silently: it changes what the user sees). */
const STATUS_LINE_NOTE = (verb: 'added' | 'would add'): string =>
  `status line: ${verb} ours ([CTX: … L2] [CKPT: …]), as your settings had none; --no-status-line skips it, uninstall removes it`;

async function uninstallOne(agent: AgentId, run: Run, program: HookProgram): Promise<number> {
  const path = settingsPath(agent, run.scope, run);
  const title = `${profileOf(agent).title} (${run.scope})`;
  const s = run.style;
  const stateDir = resolveStateDir({ env: run.env });
  const recorded = (await readInstallRecord(stateDir, path))?.commands ?? [];
  // Codex keys its trust entries by the handler's place in the file: compute ours before they go.
  const current = profileOf(agent).hooksHaveTrustEntries ? await readOptionalFile(path) : undefined;
  const trustKeys = new Set(current === undefined ? [] : findOurHookEntries(current.toString('utf8'), recorded).map((e) => codexFileTrustKey(path, e.event, e.group, e.handler)));
  let failure: string | undefined;
  let hadOurs = false;
  const plan = await planUninstall({
    stateDir,
    path,
    surgical: (current) => {
      const edited = uninstallHookEntries(current.toString('utf8'), recorded);
      if (!edited.ok) {
        failure = edited.error;
        return { bytes: current, empty: false };
      }
      hadOurs = edited.hadOurEntries;
      return { bytes: Buffer.from(edited.text, 'utf8'), empty: edited.empty };
    },
  });
  if (failure !== undefined) {
    run.writeError(`agent-checkpoint: ${title}: cannot edit ${path}: ${failure}. Nothing was changed; remove the agent-checkpoint-hook entry by hand.\n`);
    return EXIT_FAILURE;
  }
  const { change } = plan;
  if (change.before === undefined || (!plan.restoresOriginal && !hadOurs)) {
    await run.write(`${s.dim('·')} ${title}: no agent-checkpoint hook in ${path}; nothing to do\n`);
    if (!run.dryRun) await commitUninstall({ stateDir, plan: { change: { path, before: change.before, after: change.before }, restoresOriginal: false } });
    return EXIT_OK;
  }
  if (run.dryRun) {
    await run.write(`${s.bold(title)}: would ${change.after === undefined ? 'delete' : 'change'} ${path}\n${renderDiff(path, change.before.toString('utf8'), change.after?.toString('utf8'), s)}\n`);
    return EXIT_OK;
  }
  const result = await commitUninstall({ stateDir, plan, ...(run.now ? { now: run.now } : {}) });
  const what = result.deleted
    ? `deleted ${path} (install had created it)`
    : plan.restoresOriginal
      ? `restored ${path} to its state before install, byte for byte`
      : `removed our hook from ${path} (the file changed since install, so only our entries were removed; everything else was kept)`;
  await run.write(`${s.green('✓')} ${title}: ${what}\n`);
  if (result.backup !== undefined) await run.write(s.dim(`    previous version kept at ${result.backup}\n`));
  if (!existsSync(path)) {
    for (const removed of removeCompanionFiles(profileOf(agent).companionFiles?.(path, program) ?? [])) await run.write(`${s.green('✓')} ${title}: deleted ${removed}\n`);
  }
  if (trustKeys.size > 0) return removeCodexTrust(run, `the Codex trust entries of the hooks removed from ${path}`, (key) => trustKeys.has(key));
  return EXIT_OK;
}

/**
 * Remove Codex's `[hooks.state."<key>"]` trust tables that `isOurs` names from config.toml, by a
 * minimal verified text edit (codex-trust-entries.ts): every other byte of the user's file stays.
 */
async function removeCodexTrust(run: Run, what: string, isOurs: (key: string) => boolean): Promise<number> {
  const path = `${codexHome({ env: run.env, home: homeOf(run), cwd: run.cwd })}/config.toml`;
  const s = run.style;
  try {
    const before = await readOptionalFile(path);
    if (before === undefined) return EXIT_OK;
    const edited = removeTrustEntries(before.toString('utf8'), isOurs);
    if (!edited.ok) {
      run.writeError(`agent-checkpoint: ${what}: cannot edit ${path}: ${edited.error}\n`);
      return EXIT_FAILURE;
    }
    if (edited.removed.length === 0) return EXIT_OK;
    if (run.dryRun) {
      await run.write(`${s.bold('Codex CLI')}: would change ${path}\n${renderDiff(path, before.toString('utf8'), edited.text, s)}\n`);
      return EXIT_OK;
    }
    await writeSettings(path, Buffer.from(edited.text, 'utf8'));
    await run.write(`${s.green('✓')} Codex CLI: removed ${what} from ${path}:\n${edited.removed.map((k) => `    [hooks.state."${k}"]\n`).join('')}`);
    return EXIT_OK;
  } catch (error) {
    run.writeError(`agent-checkpoint: ${what}: ${describeFileFailure(error)}\n`);
    return EXIT_FAILURE;
  }
}

/** What the user must know or do after an install for the hook to run (its profile's notes). */
export function afterInstallNotes(agent: AgentId, scope: InstallScope): string[] {
  return profileOf(agent).afterInstallNotes(scope);
}

function printSnippet(agent: AgentId, run: Run, program: HookProgram): string {
  const path = settingsPath(agent, run.scope, run);
  const hooks: Record<string, unknown[]> = {};
  for (const entry of entriesToInstall(agent, run.features)) (hooks[entry.event] ??= []).push(groupFor(agent, handlerFor(agent, entry, program)));
  return `# ${profileOf(agent).title} (${run.scope}): merge into ${path}\n${JSON.stringify({ hooks }, null, 2)}\n${afterInstallNotes(agent, run.scope)
    .map((n) => `# ${n}\n`)
    .join('')}\n`;
}

/** Agents that look used here: their config directory exists, or their CLI is on PATH. */
function presentAgents(context: LocationContext): AgentId[] {
  return AGENT_IDS.filter((agent) => existsSync(agentHomeDir(agent, context)) || findExecutable(agent, context.env) !== undefined);
}

/** Our entries currently registered in a file (for doctor). Re-exported for one import site. */
export { findOurHookEntries };
