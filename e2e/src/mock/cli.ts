#!/usr/bin/env -S npx tsx
/**
 * Standalone model-API mock: `pnpm --filter @agent-checkpoint/e2e mock --scenario s.json`.
 * Prints `MOCK_URL=http://127.0.0.1:<port>` once listening and serves until SIGINT/SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startModelMock } from './mock-server.ts';
import { parseScenario } from './scenario-schema.ts';

const usage = 'usage: mock --scenario <file.json> [--port N] [--log requests.jsonl] [--root <workspace dir>]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string' },
      port: { type: 'string', default: '0' },
      log: { type: 'string' },
      root: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true || values.scenario === undefined) {
    process.stderr.write(`${usage}\n`);
    process.exitCode = values.help === true ? 0 : 2;
    return;
  }
  const scenario = parseScenario(JSON.parse(readFileSync(values.scenario, 'utf8')));
  const mock = await startModelMock({
    scenario,
    port: Number(values.port),
    ...(values.log === undefined ? {} : { logFile: values.log }),
    ...(values.root === undefined ? {} : { workspaceRoot: values.root }),
  });
  process.stdout.write(`MOCK_URL=${mock.url}\n`);
  const stop = (): void => void mock.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`mock: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
