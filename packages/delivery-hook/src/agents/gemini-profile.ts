import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import * as z from 'zod/mini';
import type { PayloadReadResult } from '../hook-event.ts';
import { HookPayloadBaseSchema, readTurnEndPayload, type TurnEndPayloadSpec } from '../hook-payload-base.ts';
import type { HookVerdict } from '../hook-verdict.ts';
import type { AgentProfile } from './agent-profile.ts';
import { additionalContextOutput, promptContextOutput, turnEndOutput } from './profile-parts.ts';
import { GEMINI_HOOK_ENTRIES } from './hook-entries.ts';

/**
 * The fields of Gemini CLI's `AfterAgent` payload the hook uses. `prompt_response` is deliberately
 * not read: it repeats chunk tails (a CLI bug), the transcript holds the real text. Gemini's
 * `stop_hook_active` is only true after a text-only answer to a block; false again once the model
 * called a tool.
 */
export const GeminiAfterAgentPayloadSchema = z.extend(HookPayloadBaseSchema, {
  /** The original request of this user prompt; unchanged on every AfterAgent after our blocks. */
  prompt: z.nullish(z.string()),
});

const geminiAfterAgent: TurnEndPayloadSpec<z.infer<typeof GeminiAfterAgentPayloadSchema>> = {
  agent: 'gemini',
  label: 'Gemini AfterAgent payload',
  turnEndEventName: 'AfterAgent',
  schema: GeminiAfterAgentPayloadSchema,
  hint: (p) => (p.prompt === null || p.prompt === undefined ? {} : { prompt: p.prompt }),
};

/** Read a Gemini CLI `AfterAgent` payload (already JSON-parsed). */
export function readGeminiAfterAgentPayload(json: unknown): PayloadReadResult {
  return readTurnEndPayload(geminiAfterAgent, json);
}

/**
 * Gemini CLI `AfterAgent`: `{"decision":"deny","reason":R}` rejects the answer and sends R, verbatim,
 * to the model as a new user message in the same prompt. Nothing on stdout (and nothing on stderr,
 * which Gemini would show as a system message) lets the turn end. A notice is `systemMessage`: Gemini
 * 0.61 emits every hook output's `systemMessage` as a `hook-system-message` event, which the
 * interactive UI adds to the history as an info line (headless `-p` prints "Hook system message: N"
 * on stderr); on a deny, its "Agent execution blocked:" warning then shows the notice instead of the
 * reason (the model still gets the reason).
 */
export function encodeGeminiAfterAgent(verdict: HookVerdict): string {
  return turnEndOutput(verdict, 'deny');
}

/** Gemini CLI: hooks in `settings.json` (named, milliseconds), chats under `~/.gemini/tmp/<project>/chats/`. */
export const geminiProfile: AgentProfile = {
  id: 'gemini',
  title: 'Gemini CLI',

  readTurnEndPayload: readGeminiAfterAgentPayload,
  encodeTurnEnd: encodeGeminiAfterAgent,
  // Reads `hookSpecificOutput.additionalContext` and prepends it to the prompt as
  // `<hook_context>…</hook_context>` (0.61, `<` and `>` escaped); `hookEventName` is ignored.
  encodeSessionStart: additionalContextOutput,
  encodePromptSubmit: promptContextOutput('BeforeAgent'),
  // The SessionStart context Gemini prepended to the first prompt: transcript-gemini's rule for the
  // recorded prompt, through its subpath that imports nothing (the package root is the whole reader).
  loadUserPromptOf: async () => (await import('@agent-checkpoint/transcript-gemini/session-start-context')).withoutSessionStartContext,
  // No turn id in the payload: the reader's id, else a digest of the repeated `prompt` (hook-identity.ts).
  payloadTurnIdIsFinal: false,
  loadTranscriptReader: async () => (await import('@agent-checkpoint/transcript-gemini')).createGeminiTranscriptReader(),

  hookEntries: GEMINI_HOOK_ENTRIES,
  hookTimeoutUnit: 'milliseconds',
  hasStatusLine: false,
  // `~/.gemini/settings.json` | `<repo>/.gemini/settings.json`
  settingsPath: (scope, where) => join(scope === 'user' ? where.home : (where.projectRoot ?? where.cwd), '.gemini', 'settings.json'),
  homeDir: (where) => join(where.home, '.gemini'),
  // Gemini wants a name and counts the timeout in milliseconds.
  hookHandler: (entry, command) => ({ name: entry.name, type: 'command', command, timeout: entry.timeoutSeconds * 1000 }),
  // AfterAgent ignores the matcher; `*` is its documented form.
  hookGroup: (handler) => ({ matcher: '*', hooks: [handler] }),
  afterInstallNotes: (scope) =>
    scope === 'project'
      ? ['Gemini CLI runs project hooks only in trusted folders: trust this folder when Gemini asks (or run /permissions). It warns once about new project hooks; that is expected.']
      : ['Gemini CLI reads hooks when a session starts: start a new session.'],
  doctorFindings: async ({ registered }) =>
    registered.includes('project')
      ? [
          {
            id: 'gemini.folder-trust',
            status: 'info',
            title: 'Gemini CLI runs project hooks only in trusted folders',
            detail: 'If Gemini asks whether to trust this folder, say yes; an untrusted folder ignores .gemini/settings.json.',
          },
        ]
      : [],
  hooksHaveTrustEntries: false,
  pluginRoute: {
    kind: 'gemini-extension',
    // gemini-extension.json sets it to `${extensionPath}`; the plugin is under `plugins/agent-checkpoint` there.
    rootEnv: 'AGENT_CHECKPOINT_EXTENSION_PATH',
    pluginRootFrom: (root) => join(root, 'plugins', 'agent-checkpoint'),
    // Its TOML commands (commands/*.toml); `trust` has none.
    userCommands: (tool) => ({ offSession: '/checkpoint-off --session {sessionId}', doctor: '/checkpoint-doctor', trust: `${tool} trust` }),
    pluginBinOnAgentPath: () => false,
    title: 'Gemini CLI extension',
    sourceGone: { what: 'linked folder', effect: 'Gemini CLI runs a linked extension from that folder: no hook of ours runs.', failsWhenDisabled: true },
    activeInstallFindings: async () => [],
    // A linked extension runs from its folder: when it goes, no hook of ours runs to say so (doctor does).
    installSourceNotice: async () => undefined,
  },

  // `$GEMINI_CLI_HOME or ~/.gemini/tmp/<basename or sha256 of the project root>/chats/session-*.json(l)`
  async findLatestTranscript({ env, home, dirs }) {
    const files = await import('./transcript-files.ts');
    const base = env['GEMINI_CLI_HOME'] === undefined || env['GEMINI_CLI_HOME'] === '' ? home : env['GEMINI_CLI_HOME'];
    const names = [...new Set(dirs.flatMap((d) => [basename(d), createHash('sha256').update(d).digest('hex')]))];
    return await files.newestFile(
      names.flatMap((n) => [`${files.globSegment(n)}/chats/session-*.jsonl`, `${files.globSegment(n)}/chats/session-*.json`]),
      join(base, '.gemini', 'tmp'),
    );
  },
  // `sessionId` on the first line.
  async sessionIdOfTranscript(path) {
    const files = await import('./transcript-files.ts');
    return files.firstJsonString(await files.readFileHead(path, 4096), 'sessionId');
  },
};
