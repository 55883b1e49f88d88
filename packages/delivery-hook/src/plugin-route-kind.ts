/** The route of an install the agent manages itself (each profile's `pluginRoute.kind`; `route-commands.ts`). */
export type PluginRouteKind = 'claude-plugin' | 'codex-plugin' | 'gemini-extension';
