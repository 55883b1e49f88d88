import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AGENT_CHECKPOINT_DIR, writeHandoff } from '@agent-checkpoint/context-checkpoint';
import { resolveStateDir, type AgentId } from '@agent-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentSession } from '../src/harness/agent-session.ts';
import type { ProcessResult } from '../src/harness/process-group.ts';
import { HOOK_BUNDLE, assertBundlesBuilt } from '../src/harness/agent-checkpoint-bins.ts';
import { SKIP_REAL_CLIS, withCheckedSession } from '../src/harness/define-headless-agent-tests.ts';
import { shellQuote } from '../src/mock/native-tool-calls.ts';
import type { LoggedRequest } from '../src/mock/request-log.ts';
import { say, shell, tools, withInputTokens, type Scenario } from '../src/mock/scenario.ts';
import { ClaudeSession } from '../src/run-claude.ts';
import { CodexSession } from '../src/run-codex.ts';
import { CopilotSession } from '../src/run-copilot.ts';
import { GeminiSession } from '../src/run-gemini.ts';
import { QwenSession } from '../src/run-qwen.ts';

/**
 * `agent-checkpoint-hook session-start <agent>` installed as the real CLIs' SessionStart hook: a
 * session runs one prompt, the previous work is checkpointed (a handoff is written, as the end-of-turn
 * context step or the PreCompact hook does), the session is resumed, and the handoff reaches the
 * model's next request — once. Each test prints where the CLI put the text (role, wrapping).
 */

/** A string only the handoff contains: its presence in a request proves the injection. */
const MARKER = 'Resume marker 5c1f7e: finish the token exchange in src/oauth.ts';
const SCENARIO: Scenario = { name: 'session-start-resume', steps: [say('First answer.'), say('Resumed answer.'), say('Third answer.')] };
const FILES = {
  'src/oauth.ts': 'export const exchange = () => undefined;\n',
  '.agent-checkpoint.json': `${JSON.stringify({ handoff: { enabled: true } }, null, 2)}\n`,
};

const findings: string[] = [];
afterAll(() => {
  if (findings.length > 0) console.log(`Context hooks in the real CLIs:\n${findings.map((f) => `- ${f}`).join('\n')}`);
});

const command = (agent: AgentId): string => `node ${shellQuote(HOOK_BUNDLE)} session-start ${agent}`;

function readJson(file: string): Record<string, unknown> {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
}

/** Add our SessionStart hook to the agent's user-level settings (the runners own the project ones). */
function installSessionStart(session: AgentSession): void {
  const home = session.workspace.home;
  switch (session.agent) {
    case 'claude': {
      const file = path.join(home, '.claude', 'settings.json');
      const settings = readJson(file);
      settings['hooks'] = { SessionStart: [{ hooks: [{ type: 'command', command: command('claude'), timeout: 30 }] }] };
      writeJsonFile(file, settings);
      return;
    }
    case 'gemini': {
      const file = path.join(home, '.gemini', 'settings.json');
      const settings = readJson(file);
      settings['hooks'] = {
        ...(settings['hooks'] as Record<string, unknown> | undefined),
        SessionStart: [{ matcher: '*', hooks: [{ name: 'agent-checkpoint-session-start', type: 'command', command: command('gemini'), timeout: 30000 }] }],
      };
      writeJsonFile(file, settings);
      return;
    }
    case 'codex': {
      const file = path.join(home, '.codex', 'hooks.json');
      const hooks = readJson(file);
      hooks['hooks'] = {
        ...(hooks['hooks'] as Record<string, unknown> | undefined),
        SessionStart: [{ hooks: [{ type: 'command', command: command('codex'), timeout: 30 }] }],
      };
      writeJsonFile(file, hooks);
      return;
    }
    case 'copilot': {
      // The group form `install --agent copilot --with-context` writes (1.0.102 reads it beside its own `bash` form).
      const file = path.join(home, '.copilot', 'settings.json');
      const settings = readJson(file);
      settings['hooks'] = { ...(settings['hooks'] as Record<string, unknown> | undefined), sessionStart: [{ hooks: [{ type: 'command', command: command('copilot'), timeout: 30 }] }] };
      writeJsonFile(file, settings);
      return;
    }
    case 'qwen': {
      const file = path.join(home, '.qwen', 'settings.json');
      const settings = readJson(file);
      settings['hooks'] = { ...(settings['hooks'] as Record<string, unknown> | undefined), SessionStart: [{ hooks: [{ type: 'command', command: command('qwen'), timeout: 30 }] }] };
      writeJsonFile(file, settings);
      return;
    }
  }
}

function writeJsonFile(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Every runner has `prompt`; the shared base class does not declare it. */
type PromptingSession = AgentSession & { prompt(text: string): Promise<ProcessResult> };

/** Where the marker sits in a request, in the API's own terms (for the report). */
function placement(request: LoggedRequest): string {
  const body = request.body as Record<string, unknown>;
  const hit = (value: unknown): boolean => JSON.stringify(value).includes('5c1f7e');
  const excerpt = (value: unknown): string => {
    const text = JSON.stringify(value);
    const at = text.indexOf('5c1f7e');
    const start = Math.max(0, text.lastIndexOf('The previous session', at) - 60);
    return text.slice(start, start + 160);
  };
  for (const key of ['messages', 'contents', 'input'] as const) {
    const list = body[key];
    if (!Array.isArray(list)) continue;
    const index = list.findIndex(hit);
    if (index === -1) continue;
    const item = list[index] as Record<string, unknown>;
    return `${key}[${index}] of ${list.length} (role ${String(item['role'] ?? item['type'])}): ${excerpt(item)}`;
  }
  if (hit(body['system'])) return `system: ${excerpt(body['system'])}`;
  if (hit(body['instructions'])) return `instructions: ${excerpt(body['instructions'])}`;
  return 'somewhere else in the body';
}

/**
 * A handoff as the end-of-turn context step writes it (writeHandoff, real repository), recorded in the
 * state directory the session's hooks use: only a handoff this installation wrote is resumed.
 */
async function checkpointTheSession(session: AgentSession): Promise<string> {
  const written = await writeHandoff({
    projectRoot: session.workspace.repo,
    stateDir: resolveStateDir({ env: session.env(), homeDir: session.workspace.home }),
    now: new Date(),
    data: {
      agent: session.agent,
      projectRoot: session.workspace.repo,
      trigger: { kind: 'manual', reason: 'e2e: context checkpoint before resuming' },
      nextSteps: [MARKER],
      title: 'OAuth callback',
    },
  });
  if (!written.ok) throw new Error(written.error);
  return written.handoff.relativePath;
}

/**
 * How each CLI put the additional context in front of the model (observed with these versions):
 * Claude 2.1.330 a `system`-role message `SessionStart hook additional context: …`; Gemini 0.61.0 the
 * user prompt prefixed with `<hook_context>…</hook_context>`; Codex 0.169.0 a `developer` message;
 * Copilot CLI 1.0.102 a `user` message of its own (the top-level `additionalContext`); Qwen Code 0.24.4
 * the system message, in a hidden `<context>` block `SessionStart additional context: …`.
 */
// Pi: our extension's session_start, installed with `install --agent pi --with-context`, in
// pi-context-hooks.test.ts (a user message right after the next prompt).
const NATIVE_PLACEMENT: Record<Exclude<AgentId, 'pi'>, RegExp> = {
  claude: /^messages\[\d+\] of \d+ \(role system\): .*"text":"SessionStart hook additional context: The previous session ended with a context checkpoint/,
  gemini: /^contents\[\d+\] of \d+ \(role user\): \{"parts":\[\{"text":"<hook_context>The previous session ended with a context checkpoint/,
  codex: /^input\[\d+\] of \d+ \(role developer\): .*"type":"input_text","text":"The previous session ended with a context checkpoint/,
  copilot: /^messages\[\d+\] of \d+ \(role user\): \{"role":"user","content":"The previous session ended with a context checkpoint/,
  qwen: /^messages\[\d+\] of \d+ \(role system\): .*SessionStart additional context:\\nThe previous session ended with a context checkpoint/,
};

const AGENTS = [
  ['claude', (): Promise<AgentSession> => ClaudeSession.start({ scenario: SCENARIO, files: FILES, hook: { kind: 'none' } })],
  ['gemini', (): Promise<AgentSession> => GeminiSession.start({ scenario: SCENARIO, files: FILES, hook: { kind: 'none' } })],
  ['codex', (): Promise<AgentSession> => CodexSession.start({ scenario: SCENARIO, files: FILES, hook: { kind: 'none' } })],
  ['copilot', (): Promise<AgentSession> => CopilotSession.start({ scenario: SCENARIO, files: FILES, hook: { kind: 'none' } })],
  ['qwen', (): Promise<AgentSession> => QwenSession.start({ scenario: SCENARIO, files: FILES, hook: { kind: 'none' } })],
] as const;

describe.skipIf(SKIP_REAL_CLIS)('SessionStart: the latest handoff reaches the model when a session resumes', () => {
  it.each(AGENTS)('%s', async (agent, start) => {
    assertBundlesBuilt();
    await withCheckedSession(start(), async (session) => {
      installSessionStart(session);
      const first = await (session as PromptingSession).prompt('Start the OAuth work.');
      expect(first.exitCode, first.stderr).toBe(0);
      const before = session.requests.length;
      expect(session.requests.some((r) => JSON.stringify(r.body).includes('5c1f7e'))).toBe(false);

      const handoff = await checkpointTheSession(session);
      const resumed = await (session as PromptingSession).prompt('Continue.');
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      const after = session.requests.slice(before).filter((r) => r.answer === 'step');
      expect(after.length).toBeGreaterThan(0);
      const carrying = after.filter((r) => JSON.stringify(r.body).includes('5c1f7e'));
      expect(carrying.length, `no request after the resume carried the handoff (${agent})`).toBeGreaterThan(0);
      expect(JSON.stringify(carrying[0]?.body)).toContain(handoff);
      const where = placement(carrying[0] as LoggedRequest);
      findings.push(`${agent}: ${where}`);
      // Each CLI's own wrapping, as observed (see the delivery-hook README, "SessionStart").
      expect(where).toMatch(NATIVE_PLACEMENT[agent]);
      // The handoff is claimed for this session (the payload's id: Copilot's camelCase `sessionId` too),
      // and a later start does not get it again.
      const injected = path.join(session.workspace.repo, AGENT_CHECKPOINT_DIR, 'injected');
      const claims = readdirSync(injected).map((f) => JSON.parse(readFileSync(path.join(injected, f), 'utf8')) as Record<string, unknown>);
      expect(claims).toEqual([expect.objectContaining({ agent, sessionId: session.sessionId })]);
      const beforeThird = session.requests.length;
      const third = await (session as PromptingSession).prompt('And now?');
      expect(third.exitCode, third.stderr).toBe(0);
      const thirdRequests = session.requests.slice(beforeThird).filter((r) => r.answer === 'step');
      const fresh = thirdRequests.at(-1);
      // Resuming keeps the earlier injection in the conversation history; what must not happen is a
      // second injection: the marker appears exactly as often as after the second prompt.
      const count = (r: LoggedRequest | undefined): number => JSON.stringify(r?.body ?? '').split('5c1f7e').length - 1;
      expect(count(fresh)).toBeLessThanOrEqual(count(carrying.at(-1)));
    });
  });
});

/** The PreCompact hook in the real Claude Code: `/compact` runs it; it writes the handoff and stays silent. */
describe.skipIf(SKIP_REAL_CLIS)('PreCompact: Claude Code writes a handoff before /compact', () => {
  it('claude', async () => {
    assertBundlesBuilt();
    const scenario: Scenario = { name: 'pre-compact', steps: [say('First answer.'), say('Summary of the conversation so far.'), say('Third answer.')] };
    await withCheckedSession(ClaudeSession.start({ scenario, files: FILES, hook: { kind: 'none' } }), async (session) => {
      const file = path.join(session.workspace.home, '.claude', 'settings.json');
      writeJsonFile(file, { hooks: { PreCompact: [{ hooks: [{ type: 'command', command: `node ${shellQuote(HOOK_BUNDLE)} pre-compact claude`, timeout: 30 }] }] } });
      const first = await session.prompt('Start the OAuth work.');
      expect(first.exitCode, first.stderr).toBe(0);
      const compact = await session.prompt('/compact');
      expect(compact.exitCode, compact.stderr).toBe(0);
      const dir = path.join(session.workspace.repo, AGENT_CHECKPOINT_DIR, 'handoffs');
      const written = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')) : [];
      expect(written).toHaveLength(1);
      const handoff = readFileSync(path.join(dir, written[0] ?? ''), 'utf8');
      expect(handoff).toMatch(/checkpoint_trigger: pre-compact/);
      expect(handoff).toContain(`session_id: ${session.sessionId}`);
      expect(handoff).toContain('# Session Handoff: Start the OAuth work.');
      findings.push(`claude PreCompact (/compact): wrote ${written[0]}; compaction went on (exit 0)`);
    });
  });
});

/**
 * The preCompact hook in the real Copilot CLI: past ~128k estimated tokens 1.0.102 compacts the history
 * by itself (`trigger: "auto"`), and our hook writes the handoff before it. The compaction's own model
 * request runs beside the turn, so the mock answers whatever comes after the tool call with the fallback.
 */
describe.skipIf(SKIP_REAL_CLIS)('preCompact: Copilot CLI writes a handoff before its automatic compaction', () => {
  it('copilot', async () => {
    assertBundlesBuilt();
    const scenario: Scenario = { name: 'pre-compact-copilot', steps: [withInputTokens(tools(shell('echo first call')), 150_000)], fallback: withInputTokens(say('Done.'), 150_000) };
    await withCheckedSession(CopilotSession.start({ scenario, files: FILES, hook: { kind: 'none' } }), async (session) => {
      const file = path.join(session.workspace.home, '.copilot', 'settings.json');
      writeJsonFile(file, { hooks: { preCompact: [{ hooks: [{ type: 'command', command: `node ${shellQuote(HOOK_BUNDLE)} pre-compact copilot`, timeout: 30 }] }] } });
      const run = await session.prompt('Start the OAuth work.');
      expect(run.exitCode, run.stderr).toBe(0);
      const dir = path.join(session.workspace.repo, AGENT_CHECKPOINT_DIR, 'handoffs');
      const written = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')) : [];
      expect(written.length).toBeGreaterThan(0);
      const handoff = readFileSync(path.join(dir, written[0] ?? ''), 'utf8');
      expect(handoff).toMatch(/checkpoint_trigger: pre-compact/);
      expect(handoff).toContain(`session_id: ${session.sessionId}`);
      findings.push(`copilot preCompact (auto): wrote ${written.join(', ')}; the run went on (exit 0)`);
    });
  });
});
