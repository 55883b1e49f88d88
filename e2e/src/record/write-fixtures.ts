import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LoggedRequest } from '../mock/request-log.ts';
import type { HookInvocation } from '../harness/agent-session.ts';
import type { DrivenScenario } from './drive-scenario.ts';
import { sanitizeText, type SanitizeContext } from './sanitize-paths.ts';

/** The files written for one scenario, relative to the recorded/ folder. */
export interface WrittenFixture {
  readonly scenario: string;
  readonly files: readonly string[];
}

const ENV_KEYS = /^(CLAUDE|GEMINI|CODEX|TMUX)/;

/**
 * Writes one recording into `dir` (`fixtures/<agent>/<version>/recorded/`):
 * - `<scenario>.jsonl`: the transcript, verbatim except for path placeholders
 *   (`<scenario>.<n>.jsonl` for further transcript files, if any);
 * - `<scenario>.hook-payloads.jsonl`: each Stop/AfterAgent call: payload, what the probe answered,
 *   the transcript size when the hook ran, the agent's own env vars;
 * - `<scenario>.model-requests.jsonl`: per model request, the step answered and the tail of the
 *   history it carried (shows how a block reason reached the model);
 * - Codex: `<scenario>.notify-payloads.jsonl`; TUI: `<scenario>.panes.txt`.
 */
export function writeFixture(dir: string, scenario: string, driven: DrivenScenario, context: SanitizeContext): WrittenFixture {
  mkdirSync(dir, { recursive: true });
  // Drop what an earlier recording of this scenario wrote (e.g. an extra transcript file).
  const own = new RegExp(`^${scenario.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+\\.jsonl|jsonl|hook-payloads\\.jsonl|model-requests\\.jsonl|notify-payloads\\.jsonl|panes\\.txt)$`);
  for (const name of readdirSync(dir)) if (own.test(name)) rmSync(path.join(dir, name));
  const files: string[] = [];
  const clean = (text: string): string => sanitizeText(text, context);
  const put = (name: string, text: string): void => {
    writeFileSync(path.join(dir, name), clean(text));
    files.push(name);
  };
  driven.artifacts.transcriptPaths.forEach((transcript, i) => {
    put(i === 0 ? `${scenario}.jsonl` : `${scenario}.${i}.jsonl`, readFileSync(transcript, 'utf8'));
  });
  put(`${scenario}.hook-payloads.jsonl`, jsonl(driven.artifacts.hookInvocations.map(hookLine)));
  put(`${scenario}.model-requests.jsonl`, jsonl(driven.artifacts.requests.map(requestLine)));
  if (driven.artifacts.agent === 'codex') {
    const main = driven.artifacts.sessionId;
    put(
      `${scenario}.notify-payloads.jsonl`,
      jsonl(driven.artifacts.notifications.map((n) => ({ n: n.n, mainThread: n.payload?.['thread-id'] === main, payload: n.payload }))),
    );
  }
  if (driven.panes.length > 0) {
    put(`${scenario}.panes.txt`, driven.panes.map((p) => `===== ${p.label} =====\n${p.screen.trimEnd()}\n`).join('\n'));
  }
  return { scenario, files };
}

function hookLine(h: HookInvocation): unknown {
  const env = Object.fromEntries(Object.entries(h.env).filter(([key]) => ENV_KEYS.test(key)));
  return { n: h.n, event: h.event, response: h.response.action, output: h.response.stdout || h.response.stderr || null, transcriptSizeAtHook: h.transcriptSizeAtHook, payload: h.payload, env };
}

function requestLine(r: LoggedRequest): unknown {
  return {
    n: r.n,
    method: r.method,
    url: r.url,
    answer: r.answer,
    ...(r.stepIndex === undefined ? {} : { stepIndex: r.stepIndex }),
    ...(r.branch === undefined ? {} : { branch: r.branch }),
    lastUserText: r.view?.lastUserText ?? null,
    historyTail: historyTail(r.body),
    reply: r.reply ?? null,
  };
}

/** The last three history entries of a request body (messages / contents / input). */
function historyTail(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  const history = record['messages'] ?? record['contents'] ?? record['input'];
  return Array.isArray(history) ? history.slice(-3) : null;
}

function jsonl(lines: readonly unknown[]): string {
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}
