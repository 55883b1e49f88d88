import { parse, type CallExpression, type Expression, type Node, type ObjectExpression, type Program, type SpreadElement } from 'acorn';
import { simple } from 'acorn-walk';
import { commandFromArgv } from './command-text.ts';

/**
 * One `tools.<name>(…)` call written in a code-mode cell's script, as far as its literal arguments
 * tell. Nothing here says whether or how the call ran: that is the cell output's business.
 */
export interface NestedToolCall {
  /** The nested tool's name (`exec_command`, `apply_patch`, `write_stdin`, an MCP tool…). */
  readonly tool: string;
  /**
   * The arguments, evaluated where they are literals: strings (quoted or template literals without
   * `${}`), numbers, booleans, null, arrays and objects of those. A non-literal value is `null`.
   */
  readonly input: Readonly<Record<string, unknown>>;
  /**
   * Whether the argument that matters is a literal: `cmd` for `exec_command`, the patch text for
   * `apply_patch`; always true for other tools (their input is informational).
   */
  readonly literal: boolean;
  /** `exec_command`: the command text (argv form reduced like a direct call's); undefined when dynamic. */
  readonly command?: string;
  /** `apply_patch`: the patch text; undefined when dynamic. */
  readonly patchText?: string;
  /** The call's source text, cut to {@link SOURCE_LIMIT} characters, for `explain`. */
  readonly source: string;
}

/** What the parser made of a cell: its nested calls in source order, or why it could not read it. */
export type CodeModeCellReading =
  | { readonly kind: 'read'; readonly calls: readonly NestedToolCall[] }
  | { readonly kind: 'unreadable'; readonly reason: string };

/** Longest call source kept on a nested call. */
const SOURCE_LIMIT = 400;
/** The object code mode gives the script for calling tools. */
const TOOLS_OBJECT = 'tools';

/**
 * Read the nested tool calls of a Codex code-mode cell (the JavaScript the model wrote for the `exec`
 * custom tool) with a real JavaScript parser: a call is a `tools.<name>(…)` / `tools["<name>"](…)` call
 * expression in the syntax tree. A command that only appears in a string, a template, a comment or a
 * `text()` argument is not a call, whatever it looks like. A script that is not valid JavaScript is
 * `unreadable` (never guessed at).
 *
 * The script is parsed as an async function body would be (top-level `await` and `return` allowed):
 * first as a sloppy-mode script, then as a module (for a cell that uses `import`).
 */
export function readCodeModeCell(script: string): CodeModeCellReading {
  const program = parseScript(script);
  if (program.kind === 'unreadable') return program;
  const found: { start: number; call: NestedToolCall }[] = [];
  simple(program.ast, {
    CallExpression(node) {
      const tool = toolName(node);
      if (tool !== undefined) found.push({ start: node.start, call: nestedCall(tool, node, script) });
    },
  });
  found.sort((a, b) => a.start - b.start);
  return { kind: 'read', calls: found.map((entry) => entry.call) };
}

function parseScript(script: string): { kind: 'parsed'; ast: Program } | { kind: 'unreadable'; reason: string } {
  const options = { ecmaVersion: 'latest', allowAwaitOutsideFunction: true, allowReturnOutsideFunction: true, allowHashBang: true } as const;
  try {
    return { kind: 'parsed', ast: parse(script, { ...options, sourceType: 'script' }) };
  } catch (scriptError) {
    try {
      return { kind: 'parsed', ast: parse(script, { ...options, sourceType: 'module' }) };
    } catch {
      return { kind: 'unreadable', reason: scriptError instanceof Error ? scriptError.message : String(scriptError) };
    }
  }
}

/** `exec_command` for `tools.exec_command(…)`, `tools["exec_command"](…)`, `tools?.exec_command(…)`. */
function toolName(node: CallExpression): string | undefined {
  const callee = node.callee;
  if (callee.type !== 'MemberExpression') return undefined;
  if (callee.object.type !== 'Identifier' || callee.object.name !== TOOLS_OBJECT) return undefined;
  if (!callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  if (callee.computed && callee.property.type !== 'PrivateIdentifier') return stringLiteral(callee.property);
  return undefined;
}

function nestedCall(tool: string, node: CallExpression, script: string): NestedToolCall {
  const first = node.arguments[0];
  const argument = first === undefined || first.type === 'SpreadElement' ? undefined : first;
  const source = script.slice(node.start, Math.min(node.end, node.start + SOURCE_LIMIT));
  switch (tool) {
    case 'exec_command': {
      const object = argument?.type === 'ObjectExpression' ? argument : undefined;
      const input = object ? literalObject(object) : {};
      const cmd = object ? property(object, 'cmd') : undefined;
      const command = cmd === undefined ? undefined : commandOf(cmd);
      return { tool, input, literal: command !== undefined, ...(command !== undefined ? { command } : {}), source };
    }
    case 'apply_patch': {
      // `apply_patch(input: string)`; an object with `input` / `patch` is read too.
      const object = argument?.type === 'ObjectExpression' ? argument : undefined;
      const text = object ? property(object, 'input') ?? property(object, 'patch') : argument;
      const patchText = text === undefined ? undefined : stringLiteral(text);
      const input = object ? literalObject(object) : { input: patchText ?? null };
      return { tool, input, literal: patchText !== undefined, ...(patchText !== undefined ? { patchText } : {}), source };
    }
    default: {
      const input = argument?.type === 'ObjectExpression' ? literalObject(argument) : argument === undefined ? {} : { arguments: literalValue(argument) };
      return { tool, input, literal: true, source };
    }
  }
}

/** `cmd` as a string literal, or an array of string literals (argv); undefined when not literal. */
function commandOf(node: Expression): string | undefined {
  const text = stringLiteral(node);
  if (text !== undefined) return text;
  if (node.type !== 'ArrayExpression') return undefined;
  const argv: string[] = [];
  for (const element of node.elements) {
    const value = element === null || element.type === 'SpreadElement' ? undefined : stringLiteral(element);
    if (value === undefined) return undefined;
    argv.push(value);
  }
  return argv.length > 0 ? commandFromArgv(argv) : undefined;
}

/** The value of a non-computed, non-shorthand-method property named `name`, when there is exactly one. */
function property(object: ObjectExpression, name: string): Expression | undefined {
  let found: Expression | undefined;
  for (const entry of object.properties) {
    if (entry.type === 'SpreadElement') continue;
    if (entry.computed || entry.kind !== 'init') continue;
    const key = entry.key.type === 'Identifier' ? entry.key.name : entry.key.type === 'Literal' ? String(entry.key.value) : undefined;
    if (key !== name) continue;
    // A later property of the same name wins in JavaScript.
    found = entry.value as Expression;
  }
  return found;
}

/** A string known without running anything: a quoted string, a template without `${}`, or `+` of those. */
function stringLiteral(node: Node): string | undefined {
  if (node.type === 'Literal') {
    const value = (node as Extract<Expression, { type: 'Literal' }>).value;
    return typeof value === 'string' ? value : undefined;
  }
  if (node.type === 'TemplateLiteral') {
    const template = node as Extract<Expression, { type: 'TemplateLiteral' }>;
    return template.expressions.length === 0 ? (template.quasis[0]?.value.cooked ?? undefined) : undefined;
  }
  if (node.type === 'BinaryExpression') {
    const binary = node as Extract<Expression, { type: 'BinaryExpression' }>;
    if (binary.operator !== '+' || binary.left.type === 'PrivateIdentifier') return undefined;
    const left = stringLiteral(binary.left);
    const right = left === undefined ? undefined : stringLiteral(binary.right);
    return left !== undefined && right !== undefined ? left + right : undefined;
  }
  return undefined;
}

/** An object's literal properties (non-literal values as `null`; computed keys and spreads skipped). */
function literalObject(object: ObjectExpression): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of object.properties) {
    if (entry.type === 'SpreadElement' || entry.computed || entry.kind !== 'init') continue;
    const key = entry.key.type === 'Identifier' ? entry.key.name : entry.key.type === 'Literal' ? String(entry.key.value) : undefined;
    if (key === undefined) continue;
    out[key] = literalValue(entry.value as Expression);
  }
  return out;
}

function literalValue(node: Expression | SpreadElement): unknown {
  if (node.type === 'SpreadElement') return null;
  const text = stringLiteral(node);
  if (text !== undefined) return text;
  if (node.type === 'Literal') {
    const value = node.value;
    return typeof value === 'number' || typeof value === 'boolean' || value === null ? value : null;
  }
  if (node.type === 'UnaryExpression' && node.operator === '-' && node.argument.type === 'Literal' && typeof node.argument.value === 'number') {
    return -node.argument.value;
  }
  if (node.type === 'ArrayExpression') return node.elements.map((element) => (element === null ? null : literalValue(element)));
  if (node.type === 'ObjectExpression') return literalObject(node);
  return null;
}
