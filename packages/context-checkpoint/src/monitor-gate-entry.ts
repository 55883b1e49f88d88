/**
 * `@agent-checkpoint/context-checkpoint/monitor-gate`: the first half of the monitor's early check,
 * run after every tool call (the config probe, the session). Its own entry, narrower than `./monitor`:
 * the monitor's gate bundle must carry no decision code, no zod and no node:crypto (a disabled
 * monitor, the default, stops here; docs/benchmarks.md, "The monitor").
 */
export { openMonitorHook } from './monitor/open-monitor-hook.ts';
