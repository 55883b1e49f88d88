import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/**
 * Native names of the agents' planning, user-question and web tools (Claude Code, Gemini CLI, Codex
 * CLI), and of Codex's image viewer. Core must decide on the unified `ToolKind` its readers give
 * (`plan`, `web`, `read`), never on these names: a list of them in core once decided whether a turn
 * may have committed, and went stale with every renamed or added tool.
 */
const AGENT_TOOL_NAMES = [
  // Claude Code
  'TodoWrite', 'TodoRead', 'ExitPlanMode', 'EnterPlanMode', 'AskUserQuestion', 'WebFetch', 'WebSearch',
  // Gemini CLI
  'write_todos', 'enter_plan_mode', 'exit_plan_mode', 'ask_user', 'google_web_search', 'web_fetch',
  // Codex CLI
  'update_plan', 'request_user_input', 'web_search', 'view_image',
];

const NAME_PATTERNS = AGENT_TOOL_NAMES.map((name) => ({ name, re: new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`, 'i') }));

/**
 * Agent tool names found in the code of one TypeScript source: in string, template and regular
 * expression literals and in object-literal keys, case-insensitive, as whole words. Comments are not
 * code: TSDoc may name a tool to explain a kind.
 */
function agentToolNamesIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const check = (node: ts.Node, literal: string): void => {
    for (const { name, re } of NAME_PATTERNS) {
      if (!re.test(literal)) continue;
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${fileName}:${line + 1}: ${name} in ${node.getText(source)}`);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) check(node, node.text);
    else if (ts.isRegularExpressionLiteral(node)) check(node, node.text);
    else if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && ts.isIdentifier(node.name)) check(node.name, node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('core knows no agent tool name', () => {
  test('the scan finds names in literals and keys, and ignores comments and lookalike identifiers', () => {
    const sample = [
      "// TodoWrite is Claude's todo tool; `web_fetch` is Gemini's.",
      '/** Codex `update_plan`. */',
      "const a = new Set(['todowrite', 'other_tool']);",
      'const b = `tool ${x} google_web_search`;',
      'const c = /^exitplanmode$/i;',
      'const d = { ask_user: true, "WebSearch": 1 };',
      "const webFetchTimeout = 'mcp__srv__web_search_x';",
    ].join('\n');
    expect(agentToolNamesIn('sample.ts', sample).map((f) => f.split(': ')[1])).toEqual([
      'TodoWrite in \'todowrite\'',
      'google_web_search in } google_web_search`',
      'ExitPlanMode in /^exitplanmode$/i',
      'ask_user in ask_user',
      'WebSearch in "WebSearch"',
    ]);
  });

  test('no source file of core (tests aside) names an agent tool: readers map names to kinds', () => {
    const root = fileURLToPath(new URL('.', import.meta.url));
    const files = fg.sync('**/*.ts', { cwd: root, ignore: ['**/*.test.ts'] });
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((file) => agentToolNamesIn(`src/${file}`, readFileSync(join(root, file), 'utf8')))).toEqual([]);
  });
});
