import { expect } from 'vitest';
import type { DeliveryRouteAdapter, DeliveryScenario } from '@agent-checkpoint/core/conformance';
import { buildStopPayload } from './build-stop-payload.ts';
import { parseHookStdout, runHookBundle } from './run-hook-bundle.ts';

/** Run the bundled hook for a scenario; returns the raw process result checks included. */
export async function deliverThroughHook(scenario: DeliveryScenario, extraArgs: readonly string[] = []): Promise<string | null> {
  const payload = buildStopPayload(scenario);
  const result = await runHookBundle({ args: [scenario.agent, ...extraArgs], stdin: JSON.stringify(payload), env: scenario.env, cwd: scenario.cwd });
  expect(result.signal, result.stderr).toBeNull();
  expect(result.code, result.stderr).toBe(0);
  return parseHookStdout(scenario.agent, result.stdout);
}

/** The hook route as the conformance suite sees it: the real bin, real stdin, the agent's payload. */
export const hookRouteAdapter: DeliveryRouteAdapter = {
  name: 'delivery-hook (bundled bin)',
  deliver: (scenario) => deliverThroughHook(scenario),
};
