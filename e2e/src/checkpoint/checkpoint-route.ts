import type { AgentId } from '@agent-checkpoint/core';

/**
 * The eight ways a checkpoint reaches an agent. `codex-queue`: the Codex TUI with its default daemon,
 * notify → `codex queue`. `codex-tmux`: the TUI (`--no-daemon`) through a `codex` without the queue
 * subcommand, notify → typing into the pane (the fallback route).
 */
export type CheckpointRoute = 'claude-hook' | 'gemini-hook' | 'codex-hook' | 'codex-queue' | 'codex-tmux' | 'copilot-hook' | 'qwen-hook' | 'pi-hook';

export const CHECKPOINT_ROUTES: readonly CheckpointRoute[] = ['claude-hook', 'gemini-hook', 'codex-hook', 'codex-queue', 'codex-tmux', 'copilot-hook', 'qwen-hook', 'pi-hook'];

/** The notify routes of the Codex TUI. */
export function isNotifyRoute(route: CheckpointRoute): route is 'codex-queue' | 'codex-tmux' {
  return route === 'codex-queue' || route === 'codex-tmux';
}

export const ROUTE_LABELS: Readonly<Record<CheckpointRoute, string>> = {
  'claude-hook': 'Claude Stop hook',
  'gemini-hook': 'Gemini AfterAgent hook',
  'codex-hook': 'Codex Stop hook (exec)',
  'codex-queue': 'Codex TUI (daemon), notify → codex queue',
  'codex-tmux': 'Codex TUI without codex queue, notify → tmux',
  'copilot-hook': 'Copilot agentStop hook',
  'qwen-hook': 'Qwen Code Stop hook',
  'pi-hook': 'Pi turn_end (our extension)',
};

const ROUTE_AGENTS: Readonly<Record<CheckpointRoute, AgentId>> = {
  'claude-hook': 'claude',
  'gemini-hook': 'gemini',
  'codex-hook': 'codex',
  'codex-queue': 'codex',
  'codex-tmux': 'codex',
  'copilot-hook': 'copilot',
  'qwen-hook': 'qwen',
  'pi-hook': 'pi',
};

export function routeAgent(route: CheckpointRoute): AgentId {
  return ROUTE_AGENTS[route];
}
