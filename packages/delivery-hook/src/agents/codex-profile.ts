import { basename, isAbsolute, join, resolve } from 'node:path';
import * as z from 'zod/mini';
import type { DoctorFinding } from '@agent-checkpoint/setup-kit';
import type { PayloadReadResult } from '../hook-event.ts';
import { HookPayloadBaseSchema, readTurnEndPayload, turnAndFinalTextHint, type TurnEndPayloadSpec } from '../hook-payload-base.ts';
import type { HookVerdict } from '../hook-verdict.ts';
import type { AgentDoctorInput, AgentLocation, AgentProfile } from './agent-profile.ts';
import { additionalContextOutput, promptContextOutput, secondsHandler, turnEndOutput } from './profile-parts.ts';
import { CODEX_HOOK_ENTRIES } from './hook-entries.ts';

/** The fields of Codex CLI's `Stop` payload the hook uses (`model`, `permission_mode`… are ignored). */
export const CodexStopPayloadSchema = z.extend(HookPayloadBaseSchema, {
  /** Same for every Stop of a turn, including the continuation after a block. */
  turn_id: z.nullish(z.string()),
  last_assistant_message: z.nullish(z.string()),
});

const codexStop: TurnEndPayloadSpec<z.infer<typeof CodexStopPayloadSchema>> = {
  agent: 'codex',
  label: 'Codex Stop payload',
  turnEndEventName: 'Stop',
  schema: CodexStopPayloadSchema,
  hint: (p) => turnAndFinalTextHint(p.turn_id, p.last_assistant_message),
};

/** Read a Codex CLI `Stop` payload (already JSON-parsed). */
export function readCodexStopPayload(json: unknown): PayloadReadResult {
  return readTurnEndPayload(codexStop, json);
}

/**
 * Codex CLI `Stop`: `{"decision":"block","reason":R}` continues the same turn with R (XML-escaped by
 * Codex) inside a `<hook_prompt>` user message. Allow is **empty stdout**: Codex rejects
 * `"decision":"approve"` as invalid stop hook output. A notice is `systemMessage`, one of the fields
 * of 0.169's `stop.command.output` schema (`continue`, `decision`, `reason`, `stopReason`,
 * `suppressOutput`, `systemMessage`; no others allowed). Accepted with a block or alone (e2e), but
 * `codex exec` neither prints nor records it; the TUI's display of it is not verified.
 */
export function encodeCodexStop(verdict: HookVerdict): string {
  return turnEndOutput(verdict, 'block');
}

/** `$CODEX_HOME` when set (absolute, or relative to cwd as Codex does), else `~/.codex`. */
export function codexHome(where: Pick<AgentLocation, 'env' | 'home' | 'cwd'>): string {
  const value = where.env['CODEX_HOME'];
  if (value !== undefined && value !== '') return isAbsolute(value) ? value : resolve(where.cwd, value);
  return join(where.home, '.codex');
}

/** Codex CLI: hooks in `hooks.json` (trusted per hash in config.toml), rollouts under `$CODEX_HOME/sessions/`. */
export const codexProfile: AgentProfile = {
  id: 'codex',
  title: 'Codex CLI',

  readTurnEndPayload: readCodexStopPayload,
  encodeTurnEnd: encodeCodexStop,
  // The same object as Claude's (`session-start.command.output` schema of 0.169: `hookEventName` is
  // required, no other keys are allowed).
  encodeSessionStart: additionalContextOutput,
  encodePromptSubmit: promptContextOutput('UserPromptSubmit'),
  // `turn_id` is unique per turn and stable across the stops after a block.
  payloadTurnIdIsFinal: true,
  loadTranscriptReader: async () => (await import('@agent-checkpoint/transcript-codex')).createCodexTranscriptReader(),

  hookEntries: CODEX_HOOK_ENTRIES,
  hookTimeoutUnit: 'seconds',
  hasStatusLine: false,
  // `$CODEX_HOME/hooks.json` (`~/.codex/hooks.json`) | `<repo>/.codex/hooks.json`
  settingsPath: (scope, where) => (scope === 'user' ? join(codexHome(where), 'hooks.json') : join(where.projectRoot ?? where.cwd, '.codex', 'hooks.json')),
  homeDir: codexHome,
  hookHandler: secondsHandler,
  hookGroup: (handler) => ({ hooks: [handler] }),
  afterInstallNotes: (scope) => [
    'Trust step (required): Codex runs hooks only after you review and trust them. Start `codex` in a terminal;',
    'it shows "Hooks need review": choose to trust them (or open /hooks and trust agent-checkpoint).',
    'Until then `codex exec` skips the hook silently. Re-trust after an upgrade changes the command.',
    ...(scope === 'project' ? ['Project hooks (.codex/hooks.json) are read only in trusted projects.'] : []),
  ],
  doctorFindings: checkCodexTrust,
  // Codex keys a trust entry (config.toml `[hooks.state]`) by the handler's place in hooks.json.
  hooksHaveTrustEntries: true,
  pluginRoute: {
    kind: 'codex-plugin',
    // The plugin's hooks file is started with `PLUGIN_ROOT` set to the plugin's cached directory.
    rootEnv: 'PLUGIN_ROOT',
    pluginRootFrom: (root) => root,
    // Skills are asked for in words, not typed: the plugin's bin (nothing of the plugin is on a terminal's PATH).
    userCommands: (tool) => ({ offSession: `${tool} off --session {sessionId}`, doctor: `${tool} doctor`, trust: `${tool} trust` }),
    pluginBinOnAgentPath: () => false,
    title: 'Codex CLI plugin',
    sourceGone: { what: 'local marketplace', effect: 'Codex keeps running its cached copy, but cannot update it from there.', failsWhenDisabled: false },
    activeInstallFindings: async (active, where) => (await import('./codex-plugin-trust.ts')).codexPluginTrust(active, join(codexHome(where), 'config.toml')),
    installSourceNotice: async (bin, doctor) => (await import('./codex-install-source.ts')).codexInstallSourceNotice(bin, doctor),
  },

  // `$CODEX_HOME/sessions/**/rollout-*.jsonl` whose `session_meta` names this cwd (the 200 newest files are checked).
  async findLatestTranscript({ env, home, cwd, dirs }) {
    const files = await import('./transcript-files.ts');
    for (const file of (await files.filesNewestFirst('sessions/**/rollout-*.jsonl', codexHome({ env, home, cwd }))).slice(0, 200)) {
      const sessionCwd = await rolloutCwd(file);
      if (sessionCwd !== undefined && dirs.includes(resolve(sessionCwd))) return file;
    }
    return undefined;
  },
  // The thread id at the end of the rollout name.
  sessionIdOfTranscript: async (path) => /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(basename(path))?.[1],
};

/** `payload.cwd` of the rollout's `session_meta` line (it comes before the long instructions). */
async function rolloutCwd(path: string): Promise<string | undefined> {
  const files = await import('./transcript-files.ts');
  const head = await files.readFileHead(path, 8192);
  if (head === undefined || !head.includes('"session_meta"')) return undefined;
  return files.firstJsonString(head, 'cwd');
}

/**
 * Codex runs non-managed hooks only once trusted; "Trust all" records
 * `[hooks.state."<hooks.json>:stop:<group>:<handler>"] trusted_hash` in config.toml. The hash cannot
 * be checked here (Codex's own digest), so presence is what is reported. Also whether hooks are
 * switched off (`[features] hooks = false`).
 */
async function checkCodexTrust({ location, registered, ours, settingsPathOf }: AgentDoctorInput): Promise<DoctorFinding[]> {
  const [{ parse: parseToml }, { readSettingsFile }] = await Promise.all([import('smol-toml'), import('@agent-checkpoint/setup-kit/read-settings-file')]);
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
  for (const scope of registered) {
    const hooksFile = settingsPathOf(scope);
    const entries = (ours.get(scope) ?? []).filter((e) => e.event === 'Stop');
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
