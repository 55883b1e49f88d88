import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { listSourceFiles } from './import-cycles/import-graph.ts';
import { workspacePackageDirs } from './public-api/collect-api-usage.ts';

// "No network" (README, docs/architecture.md): the checkpoint never opens a connection; the only
// product code that does is the annex's one HTTP function, which the issue tracker and the claude-mem
// client share (packages/context-checkpoint/README.md, "The annex"). This walks every package's
// `src` with the TypeScript parser and lists each file that reaches the network by itself: a value
// use of the global `fetch`, `WebSocket`, `EventSource` or `XMLHttpRequest`, or an import of a Node
// networking module or an HTTP client library. A new one fails here until it is listed, on purpose,
// with the docs that say what it sends. (Git's own push is a process: docs/reliability.md.)

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Files that may reach the network, each with why. */
const ALLOWED: Readonly<Record<string, string>> = {
  'packages/context-checkpoint/src/tracker/http-with-retry.ts': 'the annex: the one HTTP exchange of the Linear tracker and the claude-mem client',
  'packages/context-checkpoint/src/tracker/test-support/linear-mock.ts': 'test support: a loopback mock of Linear for tests',
  'packages/context-checkpoint/src/memory-service/test-support/claude-mem-mock.ts': 'test support: a loopback mock of the claude-mem worker for tests',
  'packages/context-checkpoint/src/direct/test-support/flaky-git-http.ts': 'test support: a loopback smart-HTTP git server (git http-backend) whose first pushes fail, for the push retry tests',
};

const NETWORK_GLOBALS = new Set(['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest']);
const NETWORK_MODULES = /^(?:node:)?(?:http|https|http2|net|tls|dgram)$|^(?:undici|ws|axios|got|node-fetch|ky)(?:\/|$)/;

/** Whether `id` is a value reference (not a property name, a declared name or a type query). */
function isValueReference(id: ts.Identifier): boolean {
  const parent = id.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === id) return false;
  if (ts.isQualifiedName(parent) && parent.right === id) return false;
  if ((ts.isPropertySignature(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isMethodDeclaration(parent)) && parent.name === id) return false;
  if (ts.isTypeQueryNode(parent) || ts.isTypeReferenceNode(parent)) return false;
  if ((ts.isParameter(parent) || ts.isVariableDeclaration(parent) || ts.isBindingElement(parent)) && parent.name === id) return false;
  return true;
}

/** What in `text` reaches the network, as `line: what` strings. */
function networkUses(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && NETWORK_MODULES.test(node.moduleSpecifier.text)) {
      found.push(`${at(node)}: imports ${node.moduleSpecifier.text}`);
    } else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      const arg = node.arguments[0];
      if (arg !== undefined && ts.isStringLiteralLike(arg) && NETWORK_MODULES.test(arg.text)) found.push(`${at(node)}: loads ${arg.text}`);
    } else if (ts.isIdentifier(node) && NETWORK_GLOBALS.has(node.text) && isValueReference(node)) found.push(`${at(node)}: uses ${node.text}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const isTestFile = (file: string): boolean => /\.(?:test|bench)\.ts$/.test(file);

describe('network calls', () => {
  it('only the annex and its loopback mocks reach the network', () => {
    const reaching: Record<string, string[]> = {};
    for (const dir of workspacePackageDirs(ROOT).filter((d) => d.startsWith('packages/'))) {
      for (const file of listSourceFiles(path.join(ROOT, dir, 'src'))) {
        if (isTestFile(file)) continue;
        const uses = networkUses(file, readFileSync(file, 'utf8'));
        if (uses.length > 0) reaching[path.relative(ROOT, file).split(path.sep).join('/')] = uses;
      }
    }
    expect(Object.keys(reaching).sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it.each([
    ['a fetch call', "await fetch('https://example.org');"],
    ['fetch as a value', 'const f = options.fetch ?? fetch;'],
    ['a node networking module', "import { request } from 'node:https';"],
    ['a socket', "import net from 'net';"],
    ['a client library loaded lazily', "const { request } = await import('undici');"],
    ['a WebSocket', "new WebSocket('wss://example.org');"],
  ])('sees %s', (_name, line) => {
    expect(networkUses('sample.ts', `${line}\n`)).toHaveLength(1);
  });

  // Without the type checker a local named `fetch` would count as the global: the safe side.
  it('does not mistake property names, declared names and types for a use', () => {
    const text = "interface O { readonly fetch?: typeof fetch }\nconst o = { fetch: undefined };\no.fetch;\nfunction f(fetch: O) {}\nimport { readFileSync } from 'node:fs';\n";
    expect(networkUses('sample.ts', text)).toEqual([]);
  });
});
