import { existsSync } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import { parseShellCommand, type AgentId } from '@agent-checkpoint/core';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { type DoctorFinding, isExecutableFile, readSettingsFile } from '@agent-checkpoint/setup-kit';
import { duplicateHookKeyIn, findOtherMentions, findOurHookEntries, type FoundHookEntry } from '../install/edit-agent-hooks.ts';
import { profileOf } from '../agents/profiles.ts';
import { HOOK_BUNDLE_NAME, LEGACY_HOOK_BUNDLE_NAME, type HookProgram } from '../install/hook-command.ts';
import type { InstallScope } from '../install/install-scope.ts';
import { agentLocation, settingsPath, type LocationContext } from '../install/settings-locations.ts';
import type { PluginInstall } from '../install/plugin-install-types.ts';
import { findPluginInstalls } from '../install/plugin-installs.ts';
import { checkPluginInstalls } from './check-plugin-installs.ts';

/** What doctor learned about one agent's registration, for the summary finding. */
export interface AgentHookState {
  readonly agent: AgentId;
  /** Scopes where the turn-end hook is registered. */
  readonly registered: readonly InstallScope[];
  /** The agent's own installs of ours (plugin, extension), enabled or not. */
  readonly plugins: readonly PluginInstall[];
  readonly findings: readonly DoctorFinding[];
}

/**
 * Where our hooks are registered for one agent (user and project settings) and whether each entry
 * can run: the node and bundle it names exist and are runnable, the timeout is sane in the agent's
 * unit, it is not registered twice; then the agent's own checks (its profile's `doctorFindings`: Codex
 * trust and `[features] hooks = false`, Gemini folder trust).
 */
export async function checkAgentHooks(agent: AgentId, location: LocationContext, program: HookProgram, cliFound: boolean, tool = 'agent-checkpoint-hook'): Promise<AgentHookState> {
  const findings: DoctorFinding[] = [];
  const registered: InstallScope[] = [];
  const ours = new Map<InstallScope, readonly FoundHookEntry[]>();
  const profile = profileOf(agent);
  const title = profile.title;
  const turnEnd = profile.hookEntries[0]!;
  for (const scope of ['user', 'project'] as const) {
    const path = settingsPath(agent, scope, location);
    if (scope === 'project' && path === settingsPath(agent, 'user', location)) continue;
    const read = readSettingsFile(path);
    if (read.kind === 'absent') continue;
    if (read.kind === 'refused') {
      findings.push({
        id: `${agent}.hook.${scope}`,
        status: 'fail',
        title: `${title} (${scope}): ${path} ${read.reason}`,
        detail: `${title} cannot use it either; nothing was read from it.`,
        fix: `replace it with a regular JSON file (or remove it), then: ${tool} install --agent ${agent}${scope === 'project' ? ' --scope project' : ''}`,
      });
      continue;
    }
    const text = read.bytes.toString('utf8');
    const duplicate = duplicateHookKeyIn(text);
    if (duplicate !== undefined) {
      findings.push({
        id: `${agent}.hook.${scope}`,
        status: 'fail',
        title: `${title} (${scope}): ${path}: ${duplicate}`,
        detail: `${title} reads the last copy; install and doctor refuse to guess which one you meant.`,
        fix: `merge the copies, then: ${tool} install --agent ${agent}${scope === 'project' ? ' --scope project' : ''}`,
      });
      continue;
    }
    const found = findOurHookEntries(text);
    ours.set(scope, found);
    // Commands of the user's that mention our hook are not ours (install and uninstall leave them):
    // they may be a wrapper that runs it, or a hand-written `npx` form that breaks under /bin/sh.
    for (const other of findOtherMentions(text)) {
      findings.push({
        id: `${agent}.hook.${scope}.${other.event}.other`,
        status: 'warn',
        title: `${title} (${scope}): ${other.event} → ${other.command}`,
        detail: `in ${path}: a command of yours that mentions agent-checkpoint-hook, not one install wrote; install and uninstall leave it as it is. Hooks run under /bin/sh without your shell's PATH set-up (nvm, fnm…), and npx costs a registry lookup per turn.`,
        fix: `if it is meant to run the hook, remove it and run: ${tool} install --agent ${agent}${scope === 'project' ? ' --scope project' : ''}`,
      });
    }
    if (found.length === 0) {
      if (!isValidJsonc(text)) {
        findings.push({
          id: `${agent}.hook.${scope}`,
          status: 'fail',
          title: `${title} (${scope}): ${path} is not valid JSON`,
          detail: 'The agent ignores or rejects a settings file it cannot parse.',
          fix: `fix the syntax, then: ${tool} install --agent ${agent}${scope === 'project' ? ' --scope project' : ''}`,
        });
      }
      continue;
    }
    for (const entry of found) findings.push(checkEntry(agent, scope, path, entry, program, tool));
    const turnEndEntries = found.filter((f) => f.event === turnEnd.event);
    if (turnEndEntries.length > 0) registered.push(scope);
    if (turnEndEntries.length > 1) {
      findings.push({
        id: `${agent}.hook.${scope}.duplicate`,
        status: 'warn',
        title: `${title} (${scope}): ${turnEndEntries.length} ${turnEnd.event} entries of ours in ${path}`,
        detail: 'Concurrent runs are safe (one checkpoint per turn), but each costs a Node start.',
        fix: `${tool} install --agent ${agent}${scope === 'project' ? ' --scope project' : ''} (keeps one)`,
      });
    }
  }
  if (registered.length === 2) {
    findings.push({
      id: `${agent}.hook.both-scopes`,
      status: 'info',
      title: `${title}: registered in both user and project settings`,
      detail: 'Both run at each turn end; the loop guard still delivers one checkpoint per turn.',
    });
  }
  const plugins = findPluginInstalls(agent, location);
  findings.push(...(await checkPluginInstalls(agent, plugins, registered, location, tool)));
  if (registered.length === 0 && !plugins.some((p) => p.enabled)) {
    findings.push({
      id: `${agent}.hook`,
      status: cliFound ? 'warn' : 'info',
      title: `${title}: no agent-checkpoint ${turnEnd.event} hook registered`,
      ...(cliFound ? { detail: `no settings entry of ours${profile.pluginRoute === undefined ? '' : ` and no ${profile.pluginRoute.title} of ours either`}; the README's install section shows ${profile.pluginRoute === undefined ? 'how to install' : 'both routes'}`, fix: `${tool} install --agent ${agent}` } : {}),
    });
  }
  if (registered.length > 0) {
    findings.push(...(await profile.doctorFindings({ location: agentLocation('user', location), registered, ours, settingsPathOf: (scope) => settingsPath(agent, scope, location) })));
  }
  return { agent, registered, plugins, findings };
}

function checkEntry(agent: AgentId, scope: InstallScope, path: string, entry: FoundHookEntry, program: HookProgram, tool: string): DoctorFinding {
  const id = `${agent}.hook.${scope}.${entry.event}`;
  const title = `${profileOf(agent).title} (${scope}): ${entry.event} → ${entry.command}`;
  const reinstall = `${tool} install --agent ${agent}${scope === 'project' ? ' --scope project' : ''}`;
  const argv = parseShellCommand(entry.command)[0]?.argv ?? [];
  const [node, bundle] = argv;
  const legacy = bundle !== undefined && basename(bundle) === LEGACY_HOOK_BUNDLE_NAME;
  if (node === undefined || bundle === undefined || !isAbsolute(node) || (basename(bundle) !== HOOK_BUNDLE_NAME && !legacy) || !isAbsolute(bundle)) {
    return {
      id,
      status: 'warn',
      title,
      detail: `in ${path}: not "<absolute node> <absolute ${HOOK_BUNDLE_NAME}> …". Hooks run under /bin/sh without your shell's PATH set-up (nvm, fnm…), and npx costs a registry lookup per turn.`,
      fix: reinstall,
    };
  }
  if (!isExecutableFile(node)) {
    return { id, status: 'fail', title, detail: `in ${path}: the node binary ${node} does not exist or is not executable (Node upgraded or removed?).`, fix: reinstall };
  }
  if (!existsSync(bundle)) {
    return { id, status: 'fail', title, detail: `in ${path}: the hook bundle ${bundle} does not exist (package moved or uninstalled?).`, fix: reinstall };
  }
  // Ten seconds in the agent's own unit: Gemini counts milliseconds, Claude and Codex seconds.
  const unit = profileOf(agent).hookTimeoutUnit;
  const minimum = unit === 'milliseconds' ? 10_000 : 10;
  if (entry.timeout !== undefined && entry.timeout < minimum) {
    return {
      id,
      status: 'warn',
      title,
      detail: `timeout ${entry.timeout} ${unit === 'milliseconds' ? 'ms' : 's'} is too short: ${profileOf(agent).title} counts it in ${unit}, and a hook it kills is skipped silently.`,
      fix: reinstall,
    };
  }
  if (legacy) {
    return {
      id,
      status: 'warn',
      title,
      detail: `in ${path}: runs ${LEGACY_HOOK_BUNDLE_NAME}, the entry of older versions; it still works, through a shim that starts ${HOOK_BUNDLE_NAME}, but loads Node's ES module loader first (a few ms more on every turn).`,
      fix: reinstall,
    };
  }
  const notes = [`in ${path}`];
  if (bundle !== program.bundle) notes.push(`points at another copy of the hook than this one (${program.bundle}); fine if intended`);
  return { id, status: 'ok', title, detail: notes.join('\n') };
}

function isValidJsonc(text: string): boolean {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { allowTrailingComma: true });
  return errors.length === 0;
}
