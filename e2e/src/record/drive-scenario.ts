import type { AgentId } from '@agent-checkpoint/core';
import type { AgentSession, PromptOptions, SessionArtifacts } from '../harness/agent-session.ts';
import { markedCommandLines } from '../harness/process-group.ts';
import { waitFor } from '../harness/wait-for.ts';
import { ClaudeSession } from '../run-claude.ts';
import { CodexSession } from '../run-codex.ts';
import { CodexTuiSession, type PaneSnapshot } from '../run-codex-tui.ts';
import { CopilotSession } from '../run-copilot.ts';
import { GeminiSession } from '../run-gemini.ts';
import { PiSession } from '../run-pi.ts';
import { QwenSession } from '../run-qwen.ts';
import type { RecordedScenario } from '../scenarios/recorded-scenarios.ts';

/** The result of driving one scenario on one agent; the session is still alive (caller disposes). */
export interface DrivenScenario {
  readonly session: AgentSession;
  readonly artifacts: SessionArtifacts;
  /** `exec` / `-p` runs, or the Codex TUI. */
  readonly mode: 'headless' | 'tui';
  readonly panes: readonly PaneSnapshot[];
}

const COMMAND_START_TIMEOUT_MS = 60_000;

/** Waits until a process of this session runs a command line containing `needle`. */
export function waitForRunningCommand(session: AgentSession, needle: string, timeoutMs = COMMAND_START_TIMEOUT_MS): Promise<void> {
  return waitFor(() => markedCommandLines(session.workspace.runId).some((p) => p.cmdline.includes(needle) && !p.cmdline.includes('tmux')), {
    timeoutMs,
    what: `a running command containing "${needle}"`,
  }).then(() => undefined);
}

/**
 * Runs the scenario's prompts on one agent. Codex scenarios that need an interrupt run in the
 * TUI (Esc); everything else runs headless. The caller must `dispose()` the returned session.
 */
export async function driveScenario(agent: AgentId, scenario: RecordedScenario): Promise<DrivenScenario> {
  const options = { scenario: scenario.script, files: scenario.files, ...(scenario.hook ? { hook: scenario.hook } : {}) };
  if (agent === 'codex' && scenario.interruptWhileRunning !== undefined) return driveCodexTui(scenario, options);
  const session = await startHeadless(agent, options);
  try {
    for (const [index, prompt] of scenario.prompts.entries()) {
      const needle = index === 0 ? scenario.interruptWhileRunning : undefined;
      const promptOptions: PromptOptions =
        needle === undefined
          ? {}
          : {
              during: async (proc) => {
                await Promise.race([waitForRunningCommand(session, needle), proc.exited]);
                proc.signalGroup('SIGINT');
              },
            };
      await session.prompt(prompt, promptOptions);
    }
    if (session instanceof CodexSession) await session.waitForNotifications(scenario.prompts.length);
    return { session, artifacts: session.artifacts(), mode: 'headless', panes: [] };
  } catch (error) {
    await session.dispose();
    throw error;
  }
}

const HEADLESS: Record<AgentId, (options: Parameters<typeof ClaudeSession.start>[0]) => Promise<ClaudeSession | GeminiSession | CodexSession | CopilotSession | QwenSession | PiSession>> = {
  claude: (options) => ClaudeSession.start(options),
  gemini: (options) => GeminiSession.start(options),
  codex: (options) => CodexSession.start(options),
  copilot: (options) => CopilotSession.start(options),
  qwen: (options) => QwenSession.start(options),
  pi: (options) => PiSession.start(options),
};

function startHeadless(agent: AgentId, options: Parameters<typeof ClaudeSession.start>[0]): Promise<ClaudeSession | GeminiSession | CodexSession | CopilotSession | QwenSession | PiSession> {
  return HEADLESS[agent](options);
}

async function driveCodexTui(scenario: RecordedScenario, options: Parameters<typeof CodexTuiSession.start>[0]): Promise<DrivenScenario> {
  const session = await CodexTuiSession.start(options);
  try {
    let completed = 0;
    for (const [index, prompt] of scenario.prompts.entries()) {
      await session.submit(prompt);
      const needle = index === 0 ? scenario.interruptWhileRunning : undefined;
      if (needle !== undefined) {
        await waitForRunningCommand(session, needle);
        session.snapshot(`prompt ${index + 1}: command running`);
        await session.interrupt();
        session.snapshot(`prompt ${index + 1}: interrupted`);
        await session.waitForIdle();
      } else {
        completed += 1;
        await session.waitForTurnsCompleted(completed);
        session.snapshot(`prompt ${index + 1}: turn completed`);
      }
    }
    return { session, artifacts: session.artifacts(), mode: 'tui', panes: session.snapshots };
  } catch (error) {
    await session.dispose();
    throw error;
  }
}
