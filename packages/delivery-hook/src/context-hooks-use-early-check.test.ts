import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The context hooks (SessionStart, PreCompact, UserPromptSubmit, the status line, the monitor) run
 * behind one early check in context-checkpoint: `openContextHook` (off switches with the project root,
 * the configuration with its sections loaded once, the enabled checks) and, for the monitor after
 * every tool call, its lean halves `openMonitorHook` (config probe) and `checkMonitorSwitches`. A hook
 * module that reads a switch or the configuration by itself has started its own copy of that
 * preamble again: before the pipeline five hooks wrote it by hand, and one (PreCompact) read the
 * switches without the project root, so `off --project` did not silence it.
 */
const EARLY_CHECK_STEPS = ['readOffSwitch', 'loadConfig', 'loadTurnEndConfig', 'probeContextConfig', 'readConfigBytes', 'contextCheckpointSections', 'checkTurnEndEarly'];

const PACKAGES = join(import.meta.dirname, '..', '..');

/** The early check's own modules: the only ones allowed to take those steps. */
const EARLY_CHECK_MODULES = new Set([
  'context-checkpoint/src/context-hooks/open-context-hook.ts',
  'context-checkpoint/src/monitor/open-monitor-hook.ts',
  'context-checkpoint/src/monitor/probe-context-config.ts',
  'context-checkpoint/src/monitor/monitor-switches.ts',
]);

/**
 * Every context hook module: the route-neutral hooks in context-checkpoint and their adapters and
 * harness in delivery-hook. Whole directories, so a module added there is scanned too.
 */
const HOOK_DIRS = [
  'context-checkpoint/src/context-hooks',
  'context-checkpoint/src/monitor',
  'delivery-hook/src/aux-hook',
  'delivery-hook/src/context-commands',
  'delivery-hook/src/session-start',
  'delivery-hook/src/pre-compact',
  'delivery-hook/src/prompt-submit',
  'delivery-hook/src/statusline',
  'delivery-hook/src/post-tool',
  // The commit gate's route glue: the gate (and its configuration) is context-checkpoint's.
  'delivery-hook/src/commit-gate',
];

function hookModules(): string[] {
  return HOOK_DIRS.flatMap((dir) =>
    readdirSync(join(PACKAGES, dir))
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => relative(PACKAGES, join(PACKAGES, dir, name)).replaceAll('\\', '/')),
  ).filter((path) => !EARLY_CHECK_MODULES.has(path));
}

/** Identifiers in code (imports, calls, property accesses) naming an early-check step; comments do not count. */
function stepsUsedIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && EARLY_CHECK_STEPS.includes(node.text)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${fileName}:${line + 1}: ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the context hooks go through the early check', () => {
  it('the scan finds a step imported, called or reached through a namespace, and ignores comments', () => {
    const sample = [
      '// readOffSwitch used to be called here',
      "import { loadConfig } from '@agent-checkpoint/core';",
      'const probe = await monitor.probeContextConfig(file, root);',
      'await readOffSwitch({ stateDir });',
      "const loaded = await loadConfig({ cwd, sections: contextCheckpointSections });",
    ].join('\n');
    expect(stepsUsedIn('sample.ts', sample)).toEqual([
      'sample.ts:2: loadConfig',
      'sample.ts:3: probeContextConfig',
      'sample.ts:4: readOffSwitch',
      'sample.ts:5: loadConfig',
      'sample.ts:5: contextCheckpointSections',
    ]);
  });

  it('scans the hooks of every context mode, and the early check modules exist', () => {
    const modules = hookModules();
    for (const hook of ['session-start', 'pre-compact', 'prompt-submit', 'statusline', 'monitor-hook', 'post-tool-main']) {
      expect(modules.some((path) => path.includes(hook)), hook).toBe(true);
    }
    for (const path of EARLY_CHECK_MODULES) expect(() => readFileSync(join(PACKAGES, path)), path).not.toThrow();
  });

  it(`no context hook module calls ${EARLY_CHECK_STEPS.join(', ')} by itself`, () => {
    const found = hookModules().flatMap((path) => stepsUsedIn(path, readFileSync(join(PACKAGES, path), 'utf8')));
    expect(found).toEqual([]);
  });
});
