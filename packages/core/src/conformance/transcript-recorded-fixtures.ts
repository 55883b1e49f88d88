import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TurnHint } from '../transcript/transcript-reader.ts';
import { RECORDED_SCENARIOS, type RecordedScenarioName } from './transcript-scenario-goldens.ts';

/**
 * One recorded end-of-turn event, as the e2e recorder writes it to `<scenario>.hook-payloads.jsonl`
 * (`{n, event, response, payload, …}`) or `<scenario>.notify-payloads.jsonl` (`{n, mainThread,
 * payload}`). Only `payload` is what the agent sent; the rest is the recorder's bookkeeping.
 */
export interface RecordedEndOfTurnEvent {
  readonly n?: number;
  readonly event?: string;
  /** What the probe answered (`block` or `pass`), for hook events. */
  readonly response?: string;
  /** False for notifications about side threads (Codex title generation…). */
  readonly mainThread?: boolean;
  readonly payload: Readonly<Record<string, unknown>>;
}

/**
 * Where a route gets its {@link TurnHint} from, replayed from the recording. The transcript package
 * maps the agent's payload exactly as its delivery route does (Claude `prompt_id` and
 * `last_assistant_message`, Codex `turn_id`, Gemini `prompt`, Codex notify `turn-id`).
 */
export interface HintSource {
  /** Shown in test names: `Stop hook`, `AfterAgent hook`, `notify`. */
  readonly name: string;
  /** File next to the transcript holding the events: `.hook-payloads.jsonl`, `.notify-payloads.jsonl`. */
  readonly fileSuffix: string;
  /**
   * When the source fires: at every stop attempt, blocked or not (end-of-turn hooks), or once per
   * completed turn (Codex `notify`).
   */
  readonly fires: 'every-stop' | 'turn-complete';
  /** The hint the route passes for this event, or undefined to ignore the event (a side thread's notify). */
  toHint(event: RecordedEndOfTurnEvent): TurnHint | undefined;
}

/** The transcript of a recorded scenario. */
export function recordedTranscriptPath(recordedDir: string, scenario: RecordedScenarioName): string {
  return join(recordedDir, `${scenario}.jsonl`);
}

/**
 * Every recorded transcript in a `recorded/` directory (`<scenario>.jsonl`, not the payload or request
 * logs next to them): the other agents' files a reader must reject as foreign.
 */
export function recordedTranscripts(recordedDir: string): string[] {
  if (!existsSync(recordedDir)) return [];
  return readdirSync(recordedDir)
    .filter((name) => name.endsWith('.jsonl') && RECORDED_SCENARIOS.some((s) => name === `${s}.jsonl`))
    .sort()
    .map((name) => join(recordedDir, name));
}

/** The hints a source yields for one scenario, in recording order (events it ignores left out). */
export function loadHints(recordedDir: string, scenario: RecordedScenarioName, source: HintSource): TurnHint[] {
  const file = join(recordedDir, `${scenario}${source.fileSuffix}`);
  const text = readFileSync(file, 'utf8');
  const hints: TurnHint[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const event = JSON.parse(line) as RecordedEndOfTurnEvent;
    const hint = source.toHint(event);
    if (hint !== undefined) hints.push(hint);
  }
  return hints;
}

/** What the recorder's `scenarios.json` says about one scenario (only the fields the goldens rely on). */
export interface RecordedScenarioScript {
  readonly name: string;
  readonly prompts: readonly string[];
  /** Every shell command the scripted model asks for, in script order. */
  readonly commands: readonly string[];
  /** The block reason the probe hook answers with, when it blocks once. */
  readonly blockReason?: string;
}

/**
 * Read `scenarios.json` (written by the recorder next to the fixtures): the prompts and commands the
 * scripted model used, so the suite can tell when the recorded scenarios and the goldens drifted apart.
 */
export function readRecordedScripts(recordedDir: string): RecordedScenarioScript[] {
  const raw = JSON.parse(readFileSync(join(recordedDir, 'scenarios.json'), 'utf8')) as unknown;
  if (!Array.isArray(raw)) throw new Error(`${recordedDir}/scenarios.json is not an array`);
  return raw.map((entry: Record<string, unknown>) => {
    const commands: string[] = [];
    collectCommands(entry['script'], commands);
    const hook = entry['hook'] as { blockOnce?: { reason?: unknown } } | undefined;
    const reason = hook?.blockOnce?.reason;
    return {
      name: String(entry['name']),
      prompts: Array.isArray(entry['prompts']) ? entry['prompts'].map(String) : [],
      commands,
      ...(typeof reason === 'string' ? { blockReason: reason } : {}),
    };
  });
}

/** Shell commands anywhere in a script (steps, branch cases, `otherwise`), depth first. */
function collectCommands(value: unknown, out: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collectCommands(item, out);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  if (record['kind'] === 'shell' && typeof record['command'] === 'string') out.push(record['command']);
  for (const child of Object.values(record)) collectCommands(child, out);
}
