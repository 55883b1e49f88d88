import { basename, join } from 'node:path';
import * as z from 'zod/mini';
import type { PayloadReadResult } from '../hook-event.ts';
import { HookPayloadBaseSchema, readTurnEndPayload, turnAndFinalTextHint, type TurnEndPayloadSpec } from '../hook-payload-base.ts';
import type { HookVerdict } from '../hook-verdict.ts';
import type { AgentProfile } from './agent-profile.ts';
import { additionalContextOutput, promptContextOutput, secondsHandler, turnEndOutput } from './profile-parts.ts';
import { CLAUDE_HOOK_ENTRIES } from './hook-entries.ts';

/**
 * The fields of Claude Code's `Stop` payload the hook uses. Loose: unknown keys (`permission_mode`,
 * `effort`, `session_crons`…) are allowed; `null` is accepted wherever a value is optional.
 */
export const ClaudeStopPayloadSchema = z.extend(HookPayloadBaseSchema, {
  /** Same for every Stop of a turn, including those after a block; new for each real prompt. */
  prompt_id: z.nullish(z.string()),
  /** The final text; Claude's transcript writer may lag behind it by ~100 ms. */
  last_assistant_message: z.nullish(z.string()),
  /** Running background subagents; the turn is not really over while one runs. */
  background_tasks: z.nullish(z.array(z.unknown())),
});

const claudeStop: TurnEndPayloadSpec<z.infer<typeof ClaudeStopPayloadSchema>> = {
  agent: 'claude',
  label: 'Claude Stop payload',
  turnEndEventName: 'Stop',
  schema: ClaudeStopPayloadSchema,
  hint: (p) => turnAndFinalTextHint(p.prompt_id, p.last_assistant_message),
  runningBackgroundTasks: (p) => (p.background_tasks ?? []).filter(isRunningTask).length,
};

/** Read a Claude Code `Stop` payload (already JSON-parsed). */
export function readClaudeStopPayload(json: unknown): PayloadReadResult {
  return readTurnEndPayload(claudeStop, json);
}

/** A task counts as running unless it says otherwise (`status` other than `running`). */
function isRunningTask(task: unknown): boolean {
  if (typeof task !== 'object' || task === null) return false;
  const status = (task as { status?: unknown }).status;
  return status === undefined || status === 'running' || status === 'pending';
}

/**
 * Claude Code `Stop`: `{"decision":"block","reason":R}` on stdout with exit 0 continues the turn; the
 * model receives `Stop hook feedback:\nR` as a user message. Nothing on stdout lets the stop pass.
 * (Not `hookSpecificOutput.additionalContext`: that also continues the turn, but is not counted as a
 * block, so `stop_hook_active` would not latch.) A notice is the common `systemMessage` field, which
 * Claude Code shows to the user and not to the model; with no `decision` the stop passes.
 */
export function encodeClaudeStop(verdict: HookVerdict): string {
  return turnEndOutput(verdict, 'block');
}

/** Claude Code: hooks in `settings.json`, transcripts under `<config dir>/projects/<slug>/`. */
export const claudeProfile: AgentProfile = {
  id: 'claude',
  title: 'Claude Code',

  readTurnEndPayload: readClaudeStopPayload,
  encodeTurnEnd: encodeClaudeStop,
  // `hookSpecificOutput.additionalContext` of a `SessionStart` output (its hook output schema).
  encodeSessionStart: additionalContextOutput,
  encodePromptSubmit: promptContextOutput('UserPromptSubmit'),
  // `prompt_id` is reused by a slash-command or skill turn: the reader's identity decides (hook-identity.ts).
  payloadTurnIdIsFinal: false,
  loadTranscriptReader: async () => (await import('@agent-checkpoint/transcript-claude')).createClaudeTranscriptReader(),

  hookEntries: CLAUDE_HOOK_ENTRIES,
  hookTimeoutUnit: 'seconds',
  hasStatusLine: true,
  // `~/.claude/settings.json` | `<repo>/.claude/settings.json`
  settingsPath: (scope, where) => join(scope === 'user' ? where.home : (where.projectRoot ?? where.cwd), '.claude', 'settings.json'),
  homeDir: (where) => join(where.home, '.claude'),
  hookHandler: secondsHandler,
  hookGroup: (handler) => ({ hooks: [handler] }),
  afterInstallNotes: () => ['Claude Code reads hooks when a session starts: start a new session (a running one keeps its old hooks).'],
  hooksHaveTrustEntries: false,
  pluginRoute: {
    kind: 'claude-plugin',
    // The plugin's hooks file is started with `CLAUDE_PLUGIN_ROOT` set to the plugin's directory.
    rootEnv: 'CLAUDE_PLUGIN_ROOT',
    pluginRootFrom: (root) => root,
    // Its slash commands (commands/*.md); `trust` has none.
    userCommands: (tool) => ({ offSession: '/agent-checkpoint:checkpoint-off --session {sessionId}', doctor: '/agent-checkpoint:checkpoint-doctor', trust: `${tool} trust` }),
    // Claude Code puts a plugin's bin/ on its Bash tool's PATH, but drops (2.1.330) a path with shell metacharacters.
    pluginBinOnAgentPath: (pluginRoot) => !/[:"'$`\\\n\r]/.test(join(pluginRoot, 'bin')),
    title: 'Claude Code plugin',
    sourceGone: {
      what: 'local marketplace',
      effect: 'Claude Code reads a folder marketplace in place: it reports "failed to load: cache-miss" and runs no hook of ours, with no warning in the session.',
      failsWhenDisabled: false,
    },
    activeInstallFindings: async () => [],
    // A folder marketplace is read in place: when it goes, no hook of ours runs to say so (doctor does).
    installSourceNotice: async () => undefined,
  },
  doctorFindings: async () => [],

  // `<config dir>/projects/<cwd with non-alphanumerics as "-">/*.jsonl`
  async findLatestTranscript({ env, home, dirs }) {
    const [{ claudeConfigDir, claudeProjectSlug }, files] = await Promise.all([import('@agent-checkpoint/transcript-claude'), import('./transcript-files.ts')]);
    const projects = join(claudeConfigDir({ env, homeDir: home }), 'projects');
    return await files.newestFile(
      dirs.map((d) => `${files.globSegment(claudeProjectSlug(d))}/*.jsonl`),
      projects,
    );
  },
  // The file name is the session id.
  sessionIdOfTranscript: async (path) => /^([A-Za-z0-9][A-Za-z0-9_-]*)\.jsonl$/.exec(basename(path))?.[1],
};
