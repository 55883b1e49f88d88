/**
 * The coding agents agent-checkpoint understands. Core never branches on this value: it is carried
 * through so adapters, diagnostics and `explain` output can say which agent a result belongs to.
 */
export type AgentId = 'claude' | 'gemini' | 'codex' | 'copilot' | 'qwen' | 'pi';

/** All agents, in a stable order (used for `--agent all` and for conformance suites). */
export const AGENT_IDS: readonly AgentId[] = ['claude', 'gemini', 'codex', 'copilot', 'qwen', 'pi'];

/** Narrow an arbitrary string to an {@link AgentId}. */
export function isAgentId(value: unknown): value is AgentId {
  return typeof value === 'string' && (AGENT_IDS as readonly string[]).includes(value);
}
