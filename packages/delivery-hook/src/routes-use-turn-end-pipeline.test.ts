import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The routes read their payload, build a `TurnEndEvent`, run core's turn-end pipeline and encode or
 * deliver its decision. The steps inside the pipeline — the off switches, the configuration, the loop
 * guard, the checkpoint — are not theirs to call: a route that calls one directly has started its own
 * copy of the sequence again (they were written three times before the pipeline).
 */
const PIPELINE_STEPS = ['getCheckpoint', 'loadConfig', 'decideLoopGuard', 'readOffSwitch'];

const ROUTES = {
  'delivery-hook run-checkpoint-phase.ts': new URL('./run-checkpoint-phase.ts', import.meta.url),
  'delivery-hook run-hook.ts': new URL('./run-hook.ts', import.meta.url),
  'delivery-hook explain/explain-turn.ts': new URL('./explain/explain-turn.ts', import.meta.url),
  'delivery-tmux run-notify.ts': new URL('../../delivery-tmux/src/run-notify.ts', import.meta.url),
};

/** Identifiers in code (imports, calls, property accesses) naming a pipeline step; comments do not count. */
function stepsUsedIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && PIPELINE_STEPS.includes(node.text)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${fileName}:${line + 1}: ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the routes go through the turn-end pipeline', () => {
  it('the scan finds a step imported, called or reached through a namespace, and ignores comments', () => {
    const sample = [
      '// getCheckpoint used to be called here',
      "import { loadConfig } from '@agent-checkpoint/core';",
      'const a = await core.decideLoopGuard(x);',
      'await readOffSwitch({ stateDir });',
    ].join('\n');
    expect(stepsUsedIn('sample.ts', sample)).toEqual(['sample.ts:2: loadConfig', 'sample.ts:3: decideLoopGuard', 'sample.ts:4: readOffSwitch']);
  });

  for (const [name, url] of Object.entries(ROUTES)) {
    it(`${name} calls none of ${PIPELINE_STEPS.join(', ')} directly`, () => {
      expect(stepsUsedIn(name, readFileSync(fileURLToPath(url), 'utf8'))).toEqual([]);
    });
  }
});
