import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Tracked files besides the scenario's own: a mid-size project. */
export const TRACKED_FILES = 5000;

/** A hermetic environment for git and the hook: no user or system git config, a temp HOME. */
export function hermeticEnv(root: string): Record<string, string> {
  const home = join(root, 'home');
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    TMPDIR: process.env['TMPDIR'] ?? '/tmp',
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
    GIT_CEILING_DIRECTORIES: root,
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'bench@example.invalid',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'bench@example.invalid',
  };
}

/**
 * Marker files of a TypeScript project: the `node` preset is detected, so changed `.ts` files call for
 * a type-check the recorded turn never ran and every hook run takes the full path (block + claim).
 */
const PROJECT_FILES: Readonly<Record<string, string>> = {
  'package.json': `${JSON.stringify({ name: 'bench-project', private: true, type: 'module', scripts: { test: 'node calc.test.mjs' } }, null, 2)}\n`,
  'tsconfig.json': `${JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }, null, 2)}\n`,
};

/**
 * A git repository in the state the recorded turn left it in: the scenario's files, a package.json and
 * tsconfig.json, and {@link TRACKED_FILES} tracked TypeScript files, committed long before the turn;
 * then the turn's edit (calc.mjs) and `changed - 1` more changes, half modified tracked files and half
 * untracked new files.
 */
export function makeBenchRepo(dir: string, initial: Readonly<Record<string, string>>, changed: number, env: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  for (const [path, text] of Object.entries({ ...initial, ...PROJECT_FILES })) write(path, text);
  for (let i = 0; i < TRACKED_FILES; i += 1) write(trackedPath(i), `export const value${i} = ${i};\n`);
  const git = (...args: string[]): void => {
    execFileSync('git', args, { cwd: dir, env: { ...env, GIT_AUTHOR_DATE: '@1577836800 +0000', GIT_COMMITTER_DATE: '@1577836800 +0000' }, stdio: 'pipe' });
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'before the turn');
  // The recorded turn's edit.
  write('calc.mjs', (initial['calc.mjs'] ?? '').replace('a - b', 'a + b'));
  const others = Math.max(0, changed - 1);
  const modified = Math.ceil(others / 2);
  for (let i = 0; i < modified; i += 1) write(trackedPath(i), `export const value${i} = ${i + 1};\n`);
  for (let i = 0; i < others - modified; i += 1) write(`generated/new-${String(i).padStart(5, '0')}.ts`, `export const fresh${i} = true;\n`);
}

function trackedPath(i: number): string {
  return `src/module-${String(Math.floor(i / 100)).padStart(2, '0')}/file-${String(i).padStart(5, '0')}.ts`;
}
