import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * Core decides; it never mutates what the user owns (docs/architecture.md). This walks core's
 * non-test sources and fails if any of them
 * - spawns a process other than through `git/run-git.ts`, or runs git with anything but the read
 *   profile's subcommands (status, log, rev-parse, config reads) — a commit, push, reset, checkout,
 *   stash, tag, update-ref, gc, write-tree… is the context package's direct execution, not core's;
 * - writes, creates, renames or removes a file outside its own state: raw fs writes live in
 *   `fs-safe/safe-write.ts`, and only `state/` (the state directory), `config/project-config-trust.ts`
 *   (the trust store in it) and `config/config-cache.ts` (core's own cache of resolved configs) may
 *   call them.
 * The rules are allow-lists, so a new way of writing is caught until someone allows it here, on
 * purpose. The self-check at the end runs the same scanner on small samples that do write.
 */

const SRC = import.meta.dirname;

/** Test support shipped only for other packages' tests (temp repos, child snippets): not the hook's code. */
const TEST_SUPPORT = ['test-support/', 'conformance/', 'git/temp-git-repo.ts'];

/** Where raw fs writes are implemented (symlink-safe, atomic). */
const WRITE_PRIMITIVES = ['fs-safe/safe-write.ts'];
/** Core's own state: the state directory, its trust store, and the cache of resolved configs. */
const OWN_STATE = ['state/', 'config/project-config-trust.ts', 'config/config-cache.ts'];
/** The one module that starts processes: git, with core's safety settings. */
const PROCESS_RUNNER = 'git/run-git.ts';

/** Git subcommands core may run (the read profile of git/git-safety.ts). */
const READ_SUBCOMMANDS = new Set(['status', 'log', 'rev-parse', 'config', 'diff']);
/**
 * `git diff` reads, but can start the repository's programs: an external diff driver and textconv
 * (both refused by these flags) and filter drivers (read-changed-line-ranges.ts overrides each one).
 */
const DIFF_REQUIRES = ['--no-ext-diff', '--no-textconv'];
/** `git config` only with one of these (a read); anything else could set a value. */
const CONFIG_READS = new Set(['--get', '--get-all', '--get-regexp', '--list', '-l', '--name-only']);

/** fs calls that change the file system (by callee name, bare or as `fs.x`). */
const FS_MUTATIONS = new Set(
  [
    'writeFile',
    'appendFile',
    'mkdir',
    'mkdtemp',
    'rm',
    'rmdir',
    'unlink',
    'rename',
    'copyFile',
    'cp',
    'symlink',
    'link',
    'truncate',
    'ftruncate',
    'chmod',
    'fchmod',
    'chown',
    'lchown',
    'utimes',
    'futimes',
    'lutimes',
    'createWriteStream',
    'write',
    'writev',
  ].flatMap((name) => [name, `${name}Sync`]),
);
/** core's own safe writers (fs-safe): allowed only for its own state. */
const SAFE_WRITERS = new Set(['writeFileSafelySync', 'appendSafelySync', 'ensureDirSafelySync', 'ensurePrivateDir', 'ensurePrivateDirSync']);
/** Modules whose only purpose is to write or lock files. */
const WRITING_MODULES = new Set(['write-file-atomic', 'proper-lockfile']);
const PROCESS_MODULES = new Set(['node:child_process', 'child_process', 'node:cluster', 'cluster']);
/** `open` flags that write: string modes with w/a/+, or O_WRONLY/O_RDWR/O_CREAT/O_APPEND/O_TRUNC. */
const WRITE_OPEN_FLAG = /^[^r]|\+|O_WRONLY|O_RDWR|O_CREAT|O_APPEND|O_TRUNC/;

interface Violation {
  readonly file: string;
  readonly line: number;
  readonly rule: string;
  readonly text: string;
}

const under = (file: string, prefixes: readonly string[]): boolean => prefixes.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));

/** The violations in one source file (`file`: its path relative to core's src/, with `/`). */
function scanSource(file: string, text: string): Violation[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: Violation[] = [];
  const report = (node: ts.Node, rule: string): void => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    out.push({ file, line, rule, text: node.getText(source).split('\n')[0]!.slice(0, 120) });
  };
  const mayWrite = under(file, OWN_STATE) || under(file, WRITE_PRIMITIVES);

  const visit = (node: ts.Node): void => {
    const specifier = moduleSpecifier(node);
    if (specifier !== undefined) {
      if (PROCESS_MODULES.has(specifier) && file !== PROCESS_RUNNER) report(node, `imports ${specifier} (only ${PROCESS_RUNNER} starts processes)`);
      if (WRITING_MODULES.has(specifier) && !mayWrite) report(node, `imports ${specifier} outside core's own state`);
    }
    if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      if (name === 'runGit') checkGitCall(node, report);
      if (name !== undefined && !under(file, WRITE_PRIMITIVES)) {
        if (FS_MUTATIONS.has(name) && !under(file, OWN_STATE)) report(node, `fs write \`${name}\` outside core's own state`);
        if (SAFE_WRITERS.has(name) && !under(file, OWN_STATE)) report(node, `\`${name}\` outside core's own state`);
        if ((name === 'open' || name === 'openSync') && opensForWriting(node, source) && !under(file, OWN_STATE)) {
          report(node, `\`${name}\` for writing outside core's own state`);
        }
      }
    }
    // Core builds the write profile (git-write-profile.ts) but never writes with it: any `profile:`
    // but the read one is a writing git call.
    if (ts.isPropertyAssignment(node) && propertyName(node.name) === 'profile' && !(ts.isStringLiteralLike(node.initializer) && node.initializer.text === 'read')) {
      report(node, 'a git call with a write profile');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function moduleSpecifier(node: ts.Node): string | undefined {
  if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
    return node.moduleSpecifier.text;
  }
  if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || calleeName(node.expression) === 'require')) {
    const arg = node.arguments[0];
    return arg && ts.isStringLiteralLike(arg) ? arg.text : '<computed>';
  }
  return undefined;
}

function calleeName(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  if (ts.isElementAccessExpression(expression) && ts.isStringLiteralLike(expression.argumentExpression)) return expression.argumentExpression.text;
  return undefined;
}

function propertyName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteralLike(name) ? name.text : undefined;
}

/** `open(path, flags)` / `openSync(path, flags)`: writing unless the flags are visibly read-only. */
function opensForWriting(call: ts.CallExpression, source: ts.SourceFile): boolean {
  const flags = call.arguments[1];
  if (flags === undefined) return false; // default 'r'
  if (ts.isStringLiteralLike(flags)) return WRITE_OPEN_FLAG.test(flags.text);
  return /O_WRONLY|O_RDWR|O_CREAT|O_APPEND|O_TRUNC/.test(flags.getText(source)) || !/O_RDONLY/.test(flags.getText(source));
}

/** `runGit([...], …)`: a literal argument list whose subcommand is a read. */
function checkGitCall(call: ts.CallExpression, report: (node: ts.Node, rule: string) => void): void {
  const args = call.arguments[0];
  if (args === undefined || !ts.isArrayLiteralExpression(args)) return report(call, 'runGit with computed arguments (cannot prove it reads)');
  const words = args.elements.map((e) => (ts.isStringLiteralLike(e) ? e.text : undefined));
  let i = 0;
  // Leading global options: `--no-optional-locks`, `-c k=v`, `-C dir`.
  while (i < words.length && words[i]?.startsWith('-')) i += words[i] === '-c' || words[i] === '-C' ? 2 : 1;
  const sub = words[i];
  if (sub === undefined) return report(call, 'runGit without a literal subcommand');
  if (!READ_SUBCOMMANDS.has(sub)) return report(call, `git ${sub} (not a read)`);
  if (sub === 'config' && !words.slice(i + 1).some((w) => w !== undefined && CONFIG_READS.has(w))) report(call, 'git config without a read option');
  if (sub === 'diff' && !DIFF_REQUIRES.every((flag) => words.includes(flag))) report(call, `git diff without ${DIFF_REQUIRES.join(' and ')}`);
}

function coreSources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...coreSources(path));
    else if (entry.name.endsWith('.ts') && !/\.(test|bench)\.ts$/.test(entry.name)) out.push(path);
  }
  return out;
}

describe('core is read-only: it decides and writes only its own state', () => {
  it("no core source spawns a mutating git command or writes outside core's own state", () => {
    const files = coreSources(SRC)
      .map((path) => relative(SRC, path).split(sep).join('/'))
      .filter((file) => !under(file, TEST_SUPPORT));
    expect(files.length).toBeGreaterThan(50);
    expect(files).toContain('get-checkpoint.ts');
    const violations = files.flatMap((file) => scanSource(file, readFileSync(join(SRC, file), 'utf8')));
    expect(violations).toEqual([]);
  });

  it('self-check: the scanner catches writes, mutating git and process spawns', () => {
    const rules = (file: string, text: string): string[] => scanSource(file, text).map((v) => v.rule);
    expect(rules('engine/x.ts', "import { writeFileSync } from 'node:fs';\nwriteFileSync('/tmp/x', 'y');")).toEqual(["fs write `writeFileSync` outside core's own state"]);
    expect(rules('engine/x.ts', "import * as fs from 'node:fs/promises';\nawait fs.rm(dir, { recursive: true });")).toEqual(["fs write `rm` outside core's own state"]);
    expect(rules('engine/x.ts', "fs.mkdirSync(d); renameSync(a, b); copyFileSync(a, b);")).toHaveLength(3);
    expect(rules('engine/x.ts', "const fd = openSync(p, 'w');")).toEqual(["`openSync` for writing outside core's own state"]);
    expect(rules('engine/x.ts', 'const fd = openSync(p, constants.O_WRONLY | constants.O_CREAT);')).toHaveLength(1);
    expect(rules('engine/x.ts', "writeFileSafelySync(root, 'a.md', text);")).toEqual(["`writeFileSafelySync` outside core's own state"]);
    expect(rules('engine/x.ts', "import writeFileAtomic from 'write-file-atomic';")).toEqual(["imports write-file-atomic outside core's own state"]);
    expect(rules('engine/x.ts', "import { spawn } from 'node:child_process';")).toEqual(['imports node:child_process (only git/run-git.ts starts processes)']);
    expect(rules('engine/x.ts', "const cp = await import('child_process');")).toHaveLength(1);
    for (const sub of ['commit', 'add', 'push', 'reset', 'checkout', 'stash', 'tag', 'update-ref', 'gc', 'write-tree']) {
      expect(rules('git/x.ts', `await runGit(['--no-optional-locks', '${sub}', 'x'], base);`), sub).toEqual([`git ${sub} (not a read)`]);
    }
    expect(rules('git/x.ts', "await runGit(['-c', 'a=b', 'config', 'user.name', 'x'], base);")).toEqual(['git config without a read option']);
    expect(rules('git/x.ts', 'await runGit(args, base);')).toEqual(['runGit with computed arguments (cannot prove it reads)']);
    expect(rules('git/x.ts', "await runGit(['status'], { ...base, profile: 'write' });")).toEqual(['a git call with a write profile']);
    expect(rules('git/x.ts', "await runGit(['status'], { ...base, profile: gitWriteProfile(user) });")).toEqual(['a git call with a write profile']);
    expect(rules('git/x.ts', "await runGit(['status'], { ...base, profile: 'read' });")).toEqual([]);
    // What core does and may do: reads, read-only opens, and writes in its own state.
    expect(rules('git/x.ts', "await runGit(['--no-optional-locks', 'log', '-z'], base); await runGit(['config', '-z', '--name-only', '--get-regexp', '^filter'], base);")).toEqual([]);
    expect(rules('transcript/x.ts', 'const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK); readFileSync(path);')).toEqual([]);
    expect(rules('state/x.ts', "import lockfile from 'proper-lockfile';\nwriteFileSafelySync(dir, 'a.json', s); rmSync(p);")).toEqual([]);
  });
});
