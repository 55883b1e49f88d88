import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as z from 'zod/mini';
import type { PayloadReadResult } from '../hook-event.ts';
import { HookPayloadBaseSchema, readTurnEndPayload, type TurnEndPayloadSpec } from '../hook-payload-base.ts';
import type { HookVerdict } from '../hook-verdict.ts';
import type { AgentLocation, AgentProfile } from './agent-profile.ts';
import { readPiContextPayload } from './pi-context-payload.ts';
import { secondsHandler, topLevelContextOutput, turnEndOutput } from './profile-parts.ts';
import { PI_HOOK_ENTRIES } from './hook-entries.ts';

/**
 * The payload our Pi extension (`plugins/agent-checkpoint/pi/agent-checkpoint/index.js`) sends at the
 * last `turn_end` of an agent run: `{hook_event_name: "turn_end", session_id, transcript_path, cwd,
 * prompt, last_assistant_message, stop_hook_active, consecutive_blocks}`. Pi itself has no hook
 * payload: the extension is ours, so is this shape.
 */
export const PiTurnEndPayloadSchema = z.extend(HookPayloadBaseSchema, {
  /** The user's last input (not our follow-ups), as the extension saw it in Pi's `input` event. */
  prompt: z.nullish(z.string()),
  last_assistant_message: z.nullish(z.string()),
});

const piTurnEnd: TurnEndPayloadSpec<z.infer<typeof PiTurnEndPayloadSchema>> = {
  agent: 'pi',
  label: 'Pi turn_end payload',
  turnEndEventName: 'turn_end',
  schema: PiTurnEndPayloadSchema,
  hint: (p) => ({
    ...(p.prompt === null || p.prompt === undefined ? {} : { prompt: p.prompt }),
    ...(p.last_assistant_message === null || p.last_assistant_message === undefined ? {} : { lastAssistantMessage: p.last_assistant_message }),
  }),
};

/** Read the Pi extension's `turn_end` payload (already JSON-parsed). */
export function readPiTurnEndPayload(json: unknown): PayloadReadResult {
  return readTurnEndPayload(piTurnEnd, json);
}

/**
 * What the extension reads back: empty stdout ends the turn; `{"decision":"block","reason":R}` makes
 * it send R as one follow-up user message (`pi.sendUserMessage(R, {deliverAs: "followUp"})`).
 */
export function encodePiTurnEnd(verdict: HookVerdict): string {
  return turnEndOutput(verdict, 'block');
}

/** `$PI_CODING_AGENT_DIR`, else `~/.pi/agent` (pi-coding-agent 0.73.1 `getAgentDir`). */
function piAgentDir(where: AgentLocation): string {
  const configured = where.env['PI_CODING_AGENT_DIR'];
  return configured !== undefined && configured.trim() !== '' ? resolve(where.home, configured.replace(/^~(?=$|\/)/, where.home)) : join(where.home, '.pi', 'agent');
}

/** The extension's directory name under Pi's `extensions/` (auto-discovered: `extensions/*\/index.js`). */
export const PI_EXTENSION_DIR = 'agent-checkpoint';

/**
 * Pi: no hook settings of its own, so our extension is the route. `install --agent pi` writes the
 * extension (`index.js`, from the plugin) and its `hook.json` — a settings document of the shape the
 * other agents use (`{"hooks":{"turn_end":[{"hooks":[{"type":"command","command":…,"timeout":60}]}]}}`),
 * so install, uninstall, doctor, status and purge edit it like any settings file; `--with-context` adds
 * the context hooks, keyed by the Pi event the extension runs each on. The extension splits each
 * command into argv and runs it without a shell. User scope: `~/.pi/agent/extensions/agent-checkpoint/`;
 * project scope: `<repo>/.pi/extensions/agent-checkpoint/`.
 */
export const piProfile: AgentProfile = {
  id: 'pi',
  title: 'Pi',

  readTurnEndPayload: readPiTurnEndPayload,
  encodeTurnEnd: encodePiTurnEnd,
  // The extension reads a top-level `additionalContext`: session_start's is sent with the next prompt,
  // before_agent_start's beside the prompt (both as one custom message, which Pi keeps in the session).
  encodeSessionStart: topLevelContextOutput,
  encodePromptSubmit: topLevelContextOutput,
  // The extension's payloads, named by Pi's events (pi-context-payload.ts).
  readContextPayload: readPiContextPayload,
  // No turn id in the payload: the reader's (the prompt entry's id).
  payloadTurnIdIsFinal: false,
  loadTranscriptReader: async () => (await import('@agent-checkpoint/transcript-pi')).createPiTranscriptReader(),

  hookEntries: PI_HOOK_ENTRIES,
  hookTimeoutUnit: 'seconds',
  hasStatusLine: false,
  settingsPath: (scope, where) =>
    scope === 'user'
      ? join(piAgentDir(where), 'extensions', PI_EXTENSION_DIR, 'hook.json')
      : join(where.projectRoot ?? where.cwd, '.pi', 'extensions', PI_EXTENSION_DIR, 'hook.json'),
  homeDir: (where) => dirname(piAgentDir(where)),
  hookHandler: secondsHandler,
  hookGroup: (handler) => ({ hooks: [handler] }),
  companionFiles: (settingsFile, program) => [{ path: join(dirname(settingsFile), 'index.js'), from: piExtensionSource(program.bundle) }],
  afterInstallNotes: (scope) => [
    scope === 'project'
      ? 'Pi loads project extensions (.pi/extensions/) for every session started in this repository: start a new session, or run /reload.'
      : 'Pi loads extensions when a session starts: start a new session, or run /reload.',
  ],
  doctorFindings: async () => [],
  hooksHaveTrustEntries: false,

  // `<agent dir>/sessions/--<cwd without its leading slash, / \\ : as ->--/<time>_<uuid>.jsonl`
  async findLatestTranscript({ env, home, cwd, dirs }) {
    const files = await import('./transcript-files.ts');
    const sessions = env['PI_CODING_AGENT_SESSION_DIR']?.trim() ? resolve(cwd, env['PI_CODING_AGENT_SESSION_DIR']) : join(piAgentDir({ env, home, cwd, projectRoot: undefined }), 'sessions');
    const names = [...new Set(dirs.map((d) => `--${d.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`))];
    return await files.newestFile(
      names.map((n) => `${files.globSegment(n)}/*.jsonl`),
      sessions,
    );
  },
  // The header's `id` on the first line (`{"type":"session","version":3,"id":…}`).
  async sessionIdOfTranscript(path) {
    const files = await import('./transcript-files.ts');
    return files.firstJsonString(await files.readFileHead(path, 4096), 'id');
  },
};

/**
 * The extension file to install, as the plugin ships it: `<plugin>/pi/agent-checkpoint/index.js`
 * next to the running bundle's `dist/`, or, running from the repository's package, the plugin's copy.
 */
function piExtensionSource(bundle: string): string {
  const dist = dirname(bundle);
  const candidates = [join(dist, '..', 'pi', PI_EXTENSION_DIR, 'index.js'), join(dist, '..', '..', '..', 'plugins', 'agent-checkpoint', 'pi', PI_EXTENSION_DIR, 'index.js')];
  return candidates.map((path) => resolve(path)).find((path) => existsSyncSafe(path)) ?? resolve(candidates[0] ?? dist);
}

function existsSyncSafe(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
