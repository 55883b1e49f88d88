import type { RecordedScenario } from '../scenarios/recorded-scenarios.ts';
import type { DrivenScenario } from './drive-scenario.ts';

/**
 * Sanity checks before a recording is written, so a broken run never becomes a fixture. Returns
 * the problems found (empty = fine).
 */
export function checkRecording(scenario: RecordedScenario, driven: DrivenScenario): string[] {
  const problems: string[] = [];
  const { artifacts } = driven;
  const interrupted = scenario.interruptWhileRunning !== undefined;
  artifacts.runs.forEach((run, i) => {
    if (run.timedOut) problems.push(`run ${i + 1} timed out`);
    const mayFail = interrupted && i === 0;
    if (!mayFail && run.exitCode !== 0) problems.push(`run ${i + 1} exited ${String(run.exitCode)}: ${run.stderr.slice(-400)}`);
  });
  for (const request of artifacts.requests) {
    if (request.answer === 'fallback') problems.push(`request ${request.n} ran past the script (step ${String(request.stepIndex)})`);
    if (request.answer === 'error' || request.answer === 'unknown') problems.push(`request ${request.n} ${request.method} ${request.url}: ${request.answer} ${request.error ?? ''}`);
    if (request.missingTools) problems.push(`request ${request.n} did not offer tools ${request.missingTools.join(', ')}`);
  }
  const turns = artifacts.requests.filter((r) => r.answer === 'step');
  const last = turns.at(-1);
  if (last?.reply?.kind !== 'text') problems.push('the last scripted answer was not a final text');
  if (artifacts.transcriptPaths.length === 0) problems.push('no transcript file');
  const hooks = artifacts.hookInvocations;
  const completedPrompts = scenario.prompts.length - (interrupted ? 1 : 0);
  const expectedBlocks = scenario.hook?.kind === 'probe' && scenario.hook.blockOnce ? 1 : 0;
  if (hooks.length !== completedPrompts + expectedBlocks) {
    problems.push(`expected ${completedPrompts + expectedBlocks} stop-hook call(s), saw ${hooks.length}`);
  }
  if (hooks.filter((h) => h.response.action === 'block').length !== expectedBlocks) problems.push(`expected ${expectedBlocks} block(s)`);
  return problems;
}
