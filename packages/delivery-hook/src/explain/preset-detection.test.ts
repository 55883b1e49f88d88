import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { materializeExample, type MaterializedExample } from '../../../../fixtures/example/materialize-example.mjs';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';
import type { ExplainReport } from './explain-turn.ts';

// Issue 11, class 6: a project file never silently switches the detected presets off. The bundled
// example (a real Claude Code turn on a tiny npm project: src/price.js and src/daemon/server.js edited,
// `npm test` run before the last edit) through the real bundle, with other project files.

let sandbox: HookSandbox;
let example: MaterializedExample;
beforeEach(() => {
  sandbox = createHookSandbox('ac-presets-');
  const root = join(sandbox.root, 'example');
  mkdirSync(root);
  example = materializeExample(root);
});
afterEach(() => sandbox.remove());

async function explainWith(config: object): Promise<ExplainReport> {
  writeFileSync(join(example.repo, '.agent-checkpoint.json'), JSON.stringify(config));
  const result = await runHookBundle({
    args: ['explain', '--agent', 'claude', '--cwd', example.repo, '--transcript', example.transcript, '--json'],
    env: { ...sandbox.env, HOME: example.home, NO_COLOR: '1' },
    cwd: example.repo,
  });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ExplainReport;
}

const DAEMON = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'example', 'project', '.agent-checkpoint.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as {
  categories: object[];
};

describe('a project file keeps the detected presets', () => {
  it('one custom category, no extends: the node preset and its `npm test` requirement stay', async () => {
    const report = await explainWith({ categories: DAEMON.categories });
    expect(report.configSources).toContainEqual({ kind: 'preset', name: 'node', detected: true });
    expect(report.requiredActions).toEqual(['Restart the pricing daemon: `npm run daemon:restart`', 'Run the tests: `npm test`']);
    const daemon = report.categories.find((c) => c.id === 'daemon');
    expect(daemon?.source).toEqual({ kind: 'project-file', name: join(example.repo, '.agent-checkpoint.json') });
    expect(report.categories.some((c) => c.source?.kind === 'preset' && c.source.name === 'node')).toBe(true);
  });

  it('a new file that only enables context checkpoints: the end-of-turn checkpoint still speaks', async () => {
    const report = await explainWith({ context: { enabled: true } });
    expect(report.decision).toBe('message');
    expect(report.requiredActions).toEqual(['Run the tests: `npm test`']);
  });

  it('"detectPresets": false is the switch: only what the file names applies', async () => {
    const report = await explainWith({ detectPresets: false, categories: DAEMON.categories });
    expect(report.configSources.some((s) => s.kind === 'preset')).toBe(false);
    expect(report.requiredActions).toEqual(['Restart the pricing daemon: `npm run daemon:restart`']);
  });
});
