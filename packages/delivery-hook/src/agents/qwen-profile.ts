import { basename, isAbsolute, join, resolve } from 'node:path';
import * as z from 'zod/mini';
import type { PayloadReadResult } from '../hook-event.ts';
import { HookPayloadBaseSchema, readTurnEndPayload, turnAndFinalTextHint, type TurnEndPayloadSpec } from '../hook-payload-base.ts';
import type { HookVerdict } from '../hook-verdict.ts';
import type { AgentLocation, AgentProfile } from './agent-profile.ts';
import type { ContextPayloadRead } from './context-payload.ts';
import { additionalContextOutput, promptContextOutput, secondsHandler, turnEndOutput } from './profile-parts.ts';
import { readSnakeCaseContextPayload } from './snake-case-context-payload.ts';
import { QWEN_HOOK_ENTRIES } from './hook-entries.ts';

/**
 * The fields of Qwen Code's `Stop` payload the hook uses (0.24.4: `session_id, transcript_path, cwd,
 * hook_event_name, prompt_id, stop_hook_active, last_assistant_message`, plus `permission_mode`,
 * `background_tasks`, `context_usage`… which are allowed and unused). Loose; `null` reads as absent.
 */
export const QwenStopPayloadSchema = z.extend(HookPayloadBaseSchema, {
  /** `<session>########<n>`: the same on every Stop of a prompt, including those after a block. */
  prompt_id: z.nullish(z.string()),
  /** The final text of the turn. */
  last_assistant_message: z.nullish(z.string()),
});

const qwenStop: TurnEndPayloadSpec<z.infer<typeof QwenStopPayloadSchema>> = {
  agent: 'qwen',
  label: 'Qwen Stop payload',
  turnEndEventName: 'Stop',
  schema: QwenStopPayloadSchema,
  hint: (p) => turnAndFinalTextHint(p.prompt_id, p.last_assistant_message),
};

/** Read a Qwen Code `Stop` payload (already JSON-parsed). */
export function readQwenStopPayload(json: unknown): PayloadReadResult {
  return readTurnEndPayload(qwenStop, json);
}

/**
 * Qwen Code's context payloads: the snake_case ones (`snake-case-context-payload.ts`), with one rule.
 * 0.24.4 fires `UserPromptSubmit` before every model request of a turn, not only the user's: after a
 * tool call with `prompt: ""`, after a Stop hook's block with the block reason as `prompt` (recorded in
 * fixtures/qwen/0.24.4/context-hooks/). Only a prompt the user submitted carries `submitted_prompt`
 * (its `sendMessageStream` sets it for a `userQuery` alone; `prompt_id` is no help: every request of
 * the turn shares it, and a resumed `qwen -p` counts from 0 again), so an event without one is marked
 * as no user prompt and the prompt hook's warning comes once per prompt. A Qwen Code that never sends
 * `submitted_prompt` (none older than 0.24.4 was checked) would get no estimate at all.
 */
export function readQwenContextPayload(json: unknown): ContextPayloadRead {
  const read = readSnakeCaseContextPayload(json);
  if ('error' in read || read.event.eventName !== 'UserPromptSubmit') return read;
  const submitted = (json as { readonly submitted_prompt?: unknown }).submitted_prompt;
  if (typeof submitted === 'string' && submitted.trim() !== '') return read;
  return { event: { ...read.event, notUserPrompt: 'UserPromptSubmit for a model request inside the turn (no submitted_prompt)' } };
}

/**
 * Qwen Code `Stop` (Claude-compatible): `{"decision":"block","reason":R}` on stdout with exit 0 sends R
 * to the model and continues the turn; empty stdout lets the stop pass. Never `{"continue":false}`:
 * unlike Claude Code, Qwen reads it as "continue the agent with `stopReason`". The reason reaches the
 * model but is never written to the chat file, so the loop signals are `stop_hook_active` (true on
 * the next Stop) and our own block record, keyed by the turn id the transcript reader refines from
 * `prompt_id`. Qwen's own cap (`QWEN_CODE_STOP_HOOK_BLOCK_CAP`, default 8: the 8th consecutive block
 * ends the turn) is far above the loop guard's blocks per turn; doctor warns when it is set so low
 * that a block can no longer continue the turn.
 */
export function encodeQwenStop(verdict: HookVerdict): string {
  return turnEndOutput(verdict, 'block');
}

/** The default of `QWEN_CODE_STOP_HOOK_BLOCK_CAP` in 0.24.4. */
export const QWEN_STOP_BLOCK_CAP_DEFAULT = 8;

/** Qwen Code's own directory: `$QWEN_HOME` when set (relative to the command's cwd), else `~/.qwen`. */
function qwenHome(where: AgentLocation): string {
  const explicit = where.env['QWEN_HOME'];
  return explicit !== undefined && explicit !== '' ? resolve(where.cwd, explicit) : join(where.home, '.qwen');
}

/** Qwen Code: hooks in `settings.json` (seconds), chats under `<runtime dir>/projects/<cwd slug>/chats/`. */
export const qwenProfile: AgentProfile = {
  id: 'qwen',
  title: 'Qwen Code',

  readTurnEndPayload: readQwenStopPayload,
  encodeTurnEnd: encodeQwenStop,
  // Claude-compatible hook outputs: `hookSpecificOutput.additionalContext` (its `hookEventName` is not checked).
  encodeSessionStart: additionalContextOutput,
  encodePromptSubmit: promptContextOutput('UserPromptSubmit'),
  readContextPayload: readQwenContextPayload,
  // `prompt_id` is a per-process counter a resumed session may count again: the reader's
  // `<prompt_id>#<prompt uuid>` decides (hook-identity.ts).
  payloadTurnIdIsFinal: false,
  loadTranscriptReader: async () => (await import('@agent-checkpoint/transcript-qwen')).createQwenTranscriptReader(),

  hookEntries: QWEN_HOOK_ENTRIES,
  // 0.24.4 counts seconds (a value of 1000 or more is still read as milliseconds): we write seconds.
  hookTimeoutUnit: 'seconds',
  hasStatusLine: false,
  // `$QWEN_HOME/settings.json` or `~/.qwen/settings.json` | `<repo>/.qwen/settings.json`
  settingsPath: (scope, where) => (scope === 'user' ? join(qwenHome(where), 'settings.json') : join(where.projectRoot ?? where.cwd, '.qwen', 'settings.json')),
  homeDir: qwenHome,
  hookHandler: secondsHandler,
  hookGroup: (handler) => ({ hooks: [handler] }),
  afterInstallNotes: (scope) =>
    scope === 'project'
      ? ['Qwen Code reads project hooks from .qwen/settings.json when a session starts (with security.folderTrust.enabled, only in a trusted folder): start a new session.']
      : ['Qwen Code reads hooks when a session starts: start a new session (a running one keeps its old hooks).'],
  doctorFindings: async ({ location }) => {
    const raw = location.env['QWEN_CODE_STOP_HOOK_BLOCK_CAP'];
    if (raw === undefined || raw.trim() === '') return [];
    const cap = Number(raw);
    if (!Number.isInteger(cap) || cap > 1) return [];
    return [
      {
        id: 'qwen.stop-block-cap',
        status: 'warn',
        title: `QWEN_CODE_STOP_HOOK_BLOCK_CAP is ${JSON.stringify(raw)}: a checkpoint cannot continue the turn`,
        detail: `Qwen Code ends the turn at the cap's block (default ${QWEN_STOP_BLOCK_CAP_DEFAULT}, so 7 continuations); at 1 or less the model never sees our checkpoint.`,
        fix: 'unset QWEN_CODE_STOP_HOOK_BLOCK_CAP (or set it to 2 or more)',
      },
    ];
  },
  hooksHaveTrustEntries: false,
  // Qwen Code has extensions (`qwen extensions link`), but agent-checkpoint ships none for it yet.

  // `<runtime dir>/projects/<cwd with non-alphanumerics as "-">/chats/<session>.jsonl`
  async findLatestTranscript({ env, home, dirs }) {
    const [{ qwenProjectSlug, qwenRuntimeDir }, files] = await Promise.all([import('@agent-checkpoint/transcript-qwen'), import('./transcript-files.ts')]);
    const projects = join(qwenRuntimeDir({ env, homeDir: home }), 'projects');
    return await files.newestFile(
      dirs.filter((d) => isAbsolute(d)).map((d) => `${files.globSegment(qwenProjectSlug(d))}/chats/*.jsonl`),
      projects,
    );
  },
  // The file name is the session id.
  sessionIdOfTranscript: async (path) => /^([A-Za-z0-9][A-Za-z0-9_-]*)\.jsonl$/.exec(basename(path))?.[1],
};
