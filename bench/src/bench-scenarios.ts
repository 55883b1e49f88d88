import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_IDS, type AgentId, type TurnHint } from '@agent-checkpoint/core';

/** Placeholders of the recorded fixtures (fixtures/<agent>/<version>/recorded/README.md). */
export const RECORDED_REPO = '/WORK/repo';
export const RECORDED_HOME = '/WORK/home';

/**
 * One agent's benchmark scenario: the recorded `fail-fix-pass` run of the real CLI (test fails, read,
 * edit, test passes), whose transcript is repeated to the wanted size and whose real hook payload is
 * replayed.
 */
export interface AgentScenario {
  readonly agent: AgentId;
  /** The recorded transcript. */
  readonly transcriptFile: string;
  /** Leading lines written once (session metadata); the rest is the turn that gets repeated. */
  readonly headerLines: number;
  /** The first recorded Stop/AfterAgent payload (transcript_path and cwd are replaced per run). */
  readonly payload: Readonly<Record<string, unknown>>;
  /** What the hook derives from that payload, for in-process reads. */
  readonly hint: TurnHint;
  /** Ids that stay the same in every repeated turn (the session's own id). */
  readonly keptIds: readonly string[];
}

const VERSIONS: Record<AgentId, string> = { claude: '2.1.330', gemini: '0.61.0', codex: '0.169.0', copilot: '1.0.102', qwen: '0.24.4', pi: '0.73.1' };
export const SCENARIO = 'fail-fix-pass';
/**
 * The agents benchmarked: every one but Copilot CLI, whose agentStop payload names the transcript
 * `transcriptPath` (payloadFor points `transcript_path` at the generated file) and whose hook waits for
 * its own `hook.start` event in the log, which a generated transcript does not hold.
 */
export const AGENTS: readonly AgentId[] = AGENT_IDS.filter((agent) => agent !== 'copilot');

export function loadScenario(fixturesDir: string, agent: AgentId): AgentScenario {
  const dir = join(fixturesDir, agent, VERSIONS[agent], 'recorded');
  const firstCall = readFileSync(join(dir, `${SCENARIO}.hook-payloads.jsonl`), 'utf8').split('\n')[0] ?? '';
  const payload = (JSON.parse(firstCall) as { payload: Record<string, unknown> }).payload;
  const sessionId = String(payload['session_id']);
  const transcriptFile = join(dir, `${SCENARIO}.jsonl`);
  switch (agent) {
    case 'claude':
      return {
        agent,
        transcriptFile,
        headerLines: 0,
        payload,
        hint: { turnId: String(payload['prompt_id']), lastAssistantMessage: String(payload['last_assistant_message']) },
        keptIds: [sessionId],
      };
    case 'gemini': {
      // The metadata line and the session-start `$set.messages` rewrite happen once per session.
      const meta = JSON.parse(readFileSync(transcriptFile, 'utf8').split('\n')[0] ?? '{}') as { sessionId?: string };
      return { agent, transcriptFile, headerLines: 2, payload, hint: { prompt: String(payload['prompt']) }, keptIds: [sessionId, meta.sessionId ?? sessionId] };
    }
    case 'codex':
      return {
        agent,
        transcriptFile,
        headerLines: 1,
        payload,
        hint: { turnId: String(payload['turn_id']), lastAssistantMessage: String(payload['last_assistant_message']) },
        keptIds: [sessionId],
      };
    case 'copilot':
      // agentStop payloads are camelCase and name no turn; `session.start` opens the log once per session.
      return { agent, transcriptFile, headerLines: 1, payload, hint: {}, keptIds: [String(payload['sessionId'])] };
    case 'qwen':
      return {
        agent,
        transcriptFile,
        headerLines: 0,
        payload,
        hint: { turnId: String(payload['prompt_id']), lastAssistantMessage: String(payload['last_assistant_message']) },
        keptIds: [sessionId],
      };
    case 'pi':
      // The session header, model_change and thinking_level_change are written once per session.
      return {
        agent,
        transcriptFile,
        headerLines: 3,
        payload,
        hint: { prompt: String(payload['prompt']), lastAssistantMessage: String(payload['last_assistant_message']) },
        keptIds: [sessionId],
      };
  }
}

/** The recorded payload pointed at this run's transcript and repository. */
export function payloadFor(scenario: AgentScenario, transcriptPath: string, repo: string): string {
  return JSON.stringify({ ...scenario.payload, transcript_path: transcriptPath, cwd: repo });
}

/** The repository the recorded scenario started from (path → content). */
export function initialFiles(fixturesDir: string): Record<string, string> {
  const scenarios = JSON.parse(readFileSync(join(fixturesDir, 'claude', VERSIONS.claude, 'recorded', 'scenarios.json'), 'utf8')) as {
    name: string;
    files: Record<string, string>;
  }[];
  const found = scenarios.find((s) => s.name === SCENARIO);
  if (found === undefined) throw new Error(`scenario ${SCENARIO} missing from scenarios.json`);
  return found.files;
}
