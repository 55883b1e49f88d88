import { basename, dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { describeIssues } from '@agent-checkpoint/core/hot-path';
import type { HookEvent, PayloadReadResult } from '../hook-event.ts';
import type { HookVerdict } from '../hook-verdict.ts';
import { given } from '../hook-payload-base.ts';
import type { AgentProfile } from './agent-profile.ts';
import { copilotHome, readCopilotContextPayload } from './copilot-context-payload.ts';
import { secondsHandler, topLevelContextOutput, turnEndOutput } from './profile-parts.ts';
import { COPILOT_HOOK_ENTRIES } from './hook-entries.ts';

/**
 * GitHub Copilot CLI's `agentStop` payload (1.0.102): camelCase except `stop_hook_active`. A finished
 * `task` subagent fires it too, with the subagent's `sessionId` (and `agentId`, `parentAgentId`) but the
 * parent's `transcriptPath`. Loose: unknown keys are allowed; `null` is accepted wherever a value is optional.
 */
export const CopilotAgentStopPayloadSchema = z.looseObject({
  /** Not sent by 1.0.102; a name other than `agentStop` is a misrouted entry (another event's payload). */
  hook_event_name: z.nullish(z.string()),
  sessionId: z.nullish(z.string()),
  /** Epoch ms of the stop; the same number is the `input.timestamp` of this call's `hook.start` event in the log. */
  timestamp: z.nullish(z.number()),
  cwd: z.nullish(z.string()),
  transcriptPath: z.nullish(z.string()),
  stopReason: z.nullish(z.string()),
  /** True on the stop right after our block (the next stops of the same prompt too). */
  stop_hook_active: z.nullish(z.boolean()),
  agentId: z.nullish(z.string()),
  agentType: z.nullish(z.string()),
  parentAgentId: z.nullish(z.string()),
});

/** Read a Copilot CLI `agentStop` payload (already JSON-parsed). Never throws. */
export function readCopilotAgentStopPayload(json: unknown): PayloadReadResult {
  const parsed = CopilotAgentStopPayloadSchema.safeParse(json);
  if (!parsed.success) return { kind: 'invalid', detail: `Copilot agentStop payload: ${describeIssues(parsed.error)}` };
  const p = parsed.data;
  const sessionId = given(p.sessionId);
  const transcriptPath = given(p.transcriptPath);
  const cwd = given(p.cwd);
  const timestamp = p.timestamp;
  const subagent = subagentOf(p, sessionId, transcriptPath);
  const named = given(p.hook_event_name);
  const event: HookEvent = {
    agent: 'copilot',
    // A subagent's stop is not the session's turn end: it passes before anything is counted, so it never
    // blocks (Copilot ignores that block anyway) nor spends the parent turn's budget.
    eventName: subagent === undefined ? (named ?? 'agentStop') : `agentStop of the ${subagent}`,
    isTurnEnd: subagent === undefined && (named === undefined || named === 'agentStop'),
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(transcriptPath === undefined ? {} : { transcriptPath }),
    ...(cwd === undefined ? {} : { cwd }),
    stopHookActive: p.stop_hook_active === true,
    // The payload names no turn: the reader's turn id (its opening prompt's message id) is the key.
    hint: {},
    runningBackgroundTasks: 0,
    ...(typeof timestamp === 'number' && Number.isFinite(timestamp)
      ? { awaitTranscript: async (path, deadlineAt) => (await import('./copilot-transcript-wait.ts')).awaitCopilotHookStart(path, timestamp, deadlineAt) }
      : {}),
  };
  return { kind: 'event', event };
}

/**
 * Who stopped, when it is a subagent: the payload says so (`parentAgentId`), or its session is not the
 * one whose log it names (`session-state/<id>/events.jsonl`).
 */
function subagentOf(p: z.infer<typeof CopilotAgentStopPayloadSchema>, sessionId: string | undefined, transcriptPath: string | undefined): string | undefined {
  const label = `${given(p.agentType) ?? 'task'} subagent ${sessionId ?? given(p.agentId) ?? ''}`.trimEnd();
  if (given(p.parentAgentId) !== undefined) return label;
  if (sessionId === undefined || transcriptPath === undefined || basename(transcriptPath) !== 'events.jsonl') return undefined;
  return basename(dirname(transcriptPath)) === sessionId ? undefined : label;
}

/**
 * Copilot CLI `agentStop`: `{"decision":"block","reason":R}` on stdout with exit 0 continues the agent;
 * R arrives as a queued user message. Empty output lets it stop. Copilot acts on 8 consecutive blocks
 * and ignores the 9th; our loop guard passes the stop after a block (`stop_hook_active`) long before.
 */
export function encodeCopilotAgentStop(verdict: HookVerdict): string {
  return turnEndOutput(verdict, 'block');
}


/** GitHub Copilot CLI: hooks in `~/.copilot/settings.json`, session logs under `~/.copilot/session-state/<id>/`. */
export const copilotProfile: AgentProfile = {
  id: 'copilot',
  title: 'GitHub Copilot CLI',

  readTurnEndPayload: readCopilotAgentStopPayload,
  encodeTurnEnd: encodeCopilotAgentStop,
  // 1.0.102 adds a top-level `additionalContext` of a sessionStart / userPromptSubmitted answer to the
  // model's input and ignores `hookSpecificOutput` (both checked against the loopback mock): the session's
  // as a user message of its own, the prompt's inside `<system_reminder>` after the prompt.
  encodeSessionStart: topLevelContextOutput,
  encodePromptSubmit: topLevelContextOutput,
  // camelCase payloads without an event name; no transcript path but preCompact's (copilot-context-payload.ts).
  readContextPayload: readCopilotContextPayload,
  payloadTurnIdIsFinal: false,
  loadTranscriptReader: async () => (await import('@agent-checkpoint/transcript-copilot')).createCopilotTranscriptReader(),

  // 1.0.102 also reads Claude's `{"hooks":[handler]}` group form with `command`/`timeout` (checked against
  // the loopback mock), so the settings edits are the other agents'.
  hookEntries: COPILOT_HOOK_ENTRIES,
  hookTimeoutUnit: 'seconds',
  hasStatusLine: false,
  // User: `$COPILOT_HOME/settings.json` (`~/.copilot`), read without folder trust. Project:
  // `.github/copilot/settings.json`, read only in a trusted folder (1.0.102, checked both ways against the
  // loopback mock; `.github/hooks/*.json` fires there too, with or without `"version": 1`).
  settingsPath: (scope, where) => (scope === 'user' ? join(copilotHome(where), 'settings.json') : join(where.projectRoot ?? where.cwd, '.github', 'copilot', 'settings.json')),
  homeDir: (where) => copilotHome(where),
  hookHandler: secondsHandler,
  hookGroup: (handler) => ({ hooks: [handler] }),
  afterInstallNotes: (scope) =>
    scope === 'project'
      ? ['Copilot CLI runs repository hooks only in a folder you trusted: trust it when Copilot asks. Start a new session.']
      : ['Copilot CLI reads hooks when a session starts: start a new session (copilot -p runs one per call).'],
  doctorFindings: async () => [],
  hooksHaveTrustEntries: false,

  // `<copilot home>/session-state/<id>/events.jsonl`, whose `session.start` names the cwd.
  async findLatestTranscript({ env, home, dirs }) {
    const files = await import('./transcript-files.ts');
    const root = join(copilotHome({ env, home }), 'session-state');
    for (const path of await files.filesNewestFirst('*/events.jsonl', root)) {
      const cwd = files.firstJsonString(await files.readFileHead(path, 4096), 'cwd');
      if (cwd !== undefined && dirs.includes(cwd)) return path;
    }
    return undefined;
  },
  // The session's directory is its id.
  sessionIdOfTranscript: async (path) => (basename(path) === 'events.jsonl' ? /^[A-Za-z0-9][A-Za-z0-9_-]*$/.exec(basename(dirname(path)))?.[0] : undefined),
};
