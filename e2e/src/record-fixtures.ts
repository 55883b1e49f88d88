/**
 * Records the agent-neutral scenarios on the real CLIs into
 * `fixtures/<agent>/<cli-version>/recorded/`:
 *
 *   pnpm --filter @agent-checkpoint/e2e record-fixtures [--agent claude,gemini,codex] [--scenario name,…] [--out dir]
 *   pnpm --filter @agent-checkpoint/e2e record-fixtures --index-only   (README/scenarios.json from recording.json)
 *
 * A scenario whose run fails the sanity checks is reported and not written; the exit code is 1 if
 * any failed. A partial run (--scenario) rewrites only those scenarios' files; `recording.json`
 * keeps the facts of earlier recordings, so the README always covers every recorded scenario.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AGENT_IDS, isAgentId, type AgentId } from '@agent-checkpoint/core';
import { agentCli, E2E_PACKAGE_DIR, ensureAgentClis } from './harness/agent-clis.ts';
import { checkRecording } from './record/check-recording.ts';
import { driveScenario } from './record/drive-scenario.ts';
import { renderFixturesReadme, type RecordingFacts, type RecordingSummary } from './record/fixtures-readme.ts';
import { writeFixture } from './record/write-fixtures.ts';
import { RECORDED_SCENARIOS } from './scenarios/recorded-scenarios.ts';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      agent: { type: 'string', default: AGENT_IDS.join(',') },
      scenario: { type: 'string' },
      out: { type: 'string', default: path.resolve(E2E_PACKAGE_DIR, '..', 'fixtures') },
      'index-only': { type: 'boolean', default: false },
    },
  });
  const agents = values.agent.split(',').filter(isAgentId);
  const wanted = values.scenario?.split(',');
  const scenarios = RECORDED_SCENARIOS.filter((s) => wanted === undefined || wanted.includes(s.name));
  if (agents.length === 0 || scenarios.length === 0) {
    process.stderr.write('record-fixtures: nothing selected\n');
    return 2;
  }
  ensureAgentClis((line) => process.stdout.write(`${line}\n`));
  if (values['index-only']) {
    for (const agent of agents) writeIndex(path.join(values.out, agent, agentCli(agent).version, 'recorded'), [], agent);
    return 0;
  }
  let failures = 0;
  for (const agent of agents) failures += await recordAgent(agent, scenarios, values.out);
  return failures === 0 ? 0 : 1;
}

async function recordAgent(agent: AgentId, scenarios: typeof RECORDED_SCENARIOS, outRoot: string): Promise<number> {
  const version = agentCli(agent).version;
  const dir = path.join(outRoot, agent, version, 'recorded');
  const summaries: RecordingSummary[] = [];
  let failures = 0;
  for (const scenario of scenarios) {
    const started = Date.now();
    process.stdout.write(`${agent} ${version} ${scenario.name}: `);
    try {
      const driven = await driveScenario(agent, scenario);
      try {
        const problems = checkRecording(scenario, driven);
        if (problems.length > 0) {
          failures += 1;
          process.stdout.write(`FAILED\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
          continue;
        }
        const written = writeFixture(dir, scenario.name, driven, {
          workspaceRoot: driven.session.workspace.root,
          e2eDir: E2E_PACKAGE_DIR,
          mockPort: driven.session.mock.port,
        });
        const requests = driven.artifacts.requests;
        summaries.push({
          scenario,
          agent,
          version,
          mode: driven.mode,
          files: written.files,
          modelRequests: requests.filter((r) => r.answer === 'step').length,
          sideRequests: requests.filter((r) => r.answer === 'side' || r.answer === 'title').length,
          hookResponses: driven.artifacts.hookInvocations.map((h) => h.response.action),
          exitCodes: driven.artifacts.runs.map((r) => r.exitCode),
        });
        process.stdout.write(`ok (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
      } finally {
        await driven.session.dispose();
      }
    } catch (error) {
      failures += 1;
      process.stdout.write(`FAILED\n  ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  if (summaries.length > 0) writeIndex(dir, summaries, agent);
  return failures;
}

/** Merges this run's facts into `recording.json`, then rewrites README.md and scenarios.json. */
function writeIndex(dir: string, fresh: readonly RecordingSummary[], agent: AgentId): void {
  const indexFile = path.join(dir, 'recording.json');
  const previous: RecordingFacts[] = existsSync(indexFile) ? (JSON.parse(readFileSync(indexFile, 'utf8')) as RecordingFacts[]) : [];
  const byName = new Map<string, RecordingFacts>(previous.map((f) => [f.name, f]));
  for (const s of fresh) {
    const { scenario, ...facts } = s;
    byName.set(scenario.name, { name: scenario.name, ...facts });
  }
  const merged = RECORDED_SCENARIOS.flatMap((scenario): RecordingSummary[] => {
    const facts = byName.get(scenario.name);
    if (facts === undefined) return [];
    const { name: _name, ...rest } = facts;
    return [{ scenario, ...rest }];
  });
  writeFileSync(indexFile, `${JSON.stringify(merged.map(({ scenario, ...facts }) => ({ name: scenario.name, ...facts })), null, 2)}\n`);
  if (merged.length === 0) return;
  writeFileSync(path.join(dir, 'README.md'), renderFixturesReadme(agent, agentCli(agent).version, merged));
  const definitions = merged.map(({ scenario: s }) => ({ name: s.name, prompts: s.prompts, files: s.files, hook: s.hook ?? { kind: 'probe' }, interruptWhileRunning: s.interruptWhileRunning ?? null, script: s.script }));
  writeFileSync(path.join(dir, 'scenarios.json'), `${JSON.stringify(definitions, null, 2)}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`record-fixtures: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
