import { existsSync } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import { parseShellCommand, type AgentId } from '@agent-checkpoint/core';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { type DoctorFinding, isExecutableFile, readSettingsFile } from '@agent-checkpoint/setup-kit';
import { duplicateHookKeyIn, findOtherMentions, findOurHookEntries, type FoundHookEntry } from '../install/edit-agent-hooks.ts';
import { AGENT_TITLES, OUR_HOOK_ENTRIES } from '../install/hook-entries.ts';
import { HOOK_BUNDLE_NAME, LEGACY_HOOK_BUNDLE_NAME, type HookProgram } from '../install/hook-command.ts';
import { codexHome, settingsPath, type InstallScope, type LocationContext } from '../install/settings-locations.ts';

/** What doctor learned about one agent's registration, for the summary finding. */
export interface AgentHookState {
  readonly agent: AgentId;
  /** Scopes where the turn-end hook is registered. */
  readonly registered: readonly InstallScope[];
  readonly findings: readonly DoctorFinding[];
}

/**
 * Where our hooks are registered for one agent (user and project settings) and whether each entry
 * can run: the node and bundle it names exist and are runnable, the timeout is sane in the agent's
 * unit, it is not registered twice. For Codex also whether the hook is trusted (`[hooks.state]` in
 * config.toml) and whether hooks are switched off (`[features] hooks = false`).
 */
export function checkAgentHooks(agent: AgentId, location: LocationContext, program: HookProgram, cliFound: boolean): AgentHookState {
  const findings: DoctorFinding[] = [];
  const registered: InstallScope[] = [];
  const texts = new Map<InstallScope, string>();
  const title = AGENT_TITLES[agent];
  const turnEnd = OUR_HOOK_ENTRIES[agent][0]!;
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
        fix: `replace it with a regular JSON file (or remove it), then: agent-checkpoint-hook install --agent ${agent}${scope === 'project' ? ' --scope project' : ''}`,
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
        fix: `merge the copies, then: agent-checkpoint-hook install --agent ${agent}${scope === 'project' ? ' --scope project' : ''}`,
      });
      continue;
    }
    texts.set(scope, text);
    const found = findOurHookEntries(text);
    // Commands of the user's that mention our hook are not ours (install and uninstall leave them):
    // they may be a wrapper that runs it, or a hand-written `npx` form that breaks under /bin/sh.
    for (const other of findOtherMentions(text)) {
      findings.push({
        id: `${agent}.hook.${scope}.${other.event}.other`,
        status: 'warn',
        title: `${title} (${scope}): ${other.event} → ${other.command}`,
        detail: `in ${path}: a command of yours that mentions agent-checkpoint-hook, not one install wrote; install and uninstall leave it as it is. Hooks run under /bin/sh without your shell's PATH set-up (nvm, fnm…), and npx costs a registry lookup per turn.`,
        fix: `if it is meant to run the hook, remove it and run: agent-checkpoint-hook install --agent ${agent}${scope === 'project' ? ' --scope project' : ''}`,
      });
    }
    if (found.length === 0) {
      if (!isValidJsonc(text)) {
        findings.push({
          id: `${agent}.hook.${scope}`,
          status: 'fail',
          title: `${title} (${scope}): ${path} is not valid JSON`,
          detail: 'The agent ignores or rejects a settings file it cannot parse.',
          fix: `fix the syntax, then: agent-checkpoint-hook install --agent ${agent}${scope === 'project' ? ' --scope project' : ''}`,
        });
      }
      continue;
    }
    for (const entry of found) findings.push(checkEntry(agent, scope, path, entry, program));
    const turnEndEntries = found.filter((f) => f.event === turnEnd.event);
    if (turnEndEntries.length > 0) registered.push(scope);
    if (turnEndEntries.length > 1) {
      findings.push({
        id: `${agent}.hook.${scope}.duplicate`,
        status: 'warn',
        title: `${title} (${scope}): ${turnEndEntries.length} ${turnEnd.event} entries of ours in ${path}`,
        detail: 'Concurrent runs are safe (one checkpoint per turn), but each costs a Node start.',
        fix: `agent-checkpoint-hook install --agent ${agent}${scope === 'project' ? ' --scope project' : ''} (keeps one)`,
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
  if (registered.length === 0) {
    findings.push({
      id: `${agent}.hook`,
      status: cliFound ? 'warn' : 'info',
      title: `${title}: no agent-checkpoint ${turnEnd.event} hook registered`,
      ...(cliFound ? { fix: `agent-checkpoint-hook install --agent ${agent}` } : {}),
    });
  }
  if (agent === 'codex' && registered.length > 0) findings.push(...checkCodexTrust(location, registered, texts));
  if (agent === 'gemini' && registered.includes('project')) {
    findings.push({
      id: 'gemini.folder-trust',
      status: 'info',
      title: 'Gemini CLI runs project hooks only in trusted folders',
      detail: 'If Gemini asks whether to trust this folder, say yes; an untrusted folder ignores .gemini/settings.json.',
    });
  }
  return { agent, registered, findings };
}

function checkEntry(agent: AgentId, scope: InstallScope, path: string, entry: FoundHookEntry, program: HookProgram): DoctorFinding {
  const id = `${agent}.hook.${scope}.${entry.event}`;
  const title = `${AGENT_TITLES[agent]} (${scope}): ${entry.event} → ${entry.command}`;
  const reinstall = `agent-checkpoint-hook install --agent ${agent}${scope === 'project' ? ' --scope project' : ''}`;
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
  const minimum = agent === 'gemini' ? 10_000 : 10;
  const unit = agent === 'gemini' ? 'ms' : 's';
  if (entry.timeout !== undefined && entry.timeout < minimum) {
    return {
      id,
      status: 'warn',
      title,
      detail: `timeout ${entry.timeout} ${unit} is too short: ${AGENT_TITLES[agent]} counts it in ${agent === 'gemini' ? 'milliseconds' : 'seconds'}, and a hook it kills is skipped silently.`,
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

/**
 * Codex runs non-managed hooks only once trusted; "Trust all" records
 * `[hooks.state."<hooks.json>:stop:<group>:<handler>"] trusted_hash` in config.toml. The hash cannot
 * be checked here (Codex's own digest), so presence is what is reported.
 */
function checkCodexTrust(location: LocationContext, scopes: readonly InstallScope[], texts: ReadonlyMap<InstallScope, string>): DoctorFinding[] {
  const configPath = `${codexHome(location)}/config.toml`;
  let config: Record<string, unknown> = {};
  const read = readSettingsFile(configPath);
  if (read.kind === 'refused') {
    return [{ id: 'codex.config', status: 'fail', title: `Codex CLI: ${configPath} ${read.reason}`, detail: 'Codex cannot read its configuration either.', fix: 'replace it with a regular TOML file (or remove it)' }];
  }
  if (read.kind === 'file') {
    try {
      config = parseToml(read.bytes.toString('utf8')) as Record<string, unknown>;
    } catch (error) {
      return [{ id: 'codex.config', status: 'fail', title: `Codex CLI: ${configPath} does not parse`, detail: (error as Error).message.split('\n')[0] ?? '', fix: 'fix the TOML syntax' }];
    }
  }
  const findings: DoctorFinding[] = [];
  const features = config['features'] as Record<string, unknown> | undefined;
  if (features?.['hooks'] === false || features?.['codex_hooks'] === false) {
    findings.push({ id: 'codex.features', status: 'fail', title: 'Codex CLI: hooks are switched off ([features] hooks = false)', fix: `remove that line from ${configPath}` });
  }
  const state = ((config['hooks'] as Record<string, unknown> | undefined)?.['state'] ?? {}) as Record<string, { trusted_hash?: unknown }>;
  for (const scope of scopes) {
    const hooksFile = settingsPath('codex', scope, location);
    const entries = findOurHookEntries(texts.get(scope) ?? '').filter((e) => e.event === 'Stop');
    const trusted = entries.some((e) => typeof state[`${hooksFile}:stop:${e.group}:${e.handler}`]?.trusted_hash === 'string');
    findings.push(
      trusted
        ? { id: `codex.trust.${scope}`, status: 'ok', title: `Codex CLI (${scope}): the Stop hook is trusted`, detail: `a trusted_hash is recorded in ${configPath}; after an upgrade changes the command, Codex asks again` }
        : {
            id: `codex.trust.${scope}`,
            status: 'warn',
            title: `Codex CLI (${scope}): the Stop hook is not trusted yet`,
            detail: 'Codex skips untrusted hooks; `codex exec` does so silently.',
            fix: 'start `codex` in a terminal and trust the hook when it shows "Hooks need review" (or /hooks)',
          },
    );
  }
  return findings;
}

function isValidJsonc(text: string): boolean {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { allowTrailingComma: true });
  return errors.length === 0;
}
