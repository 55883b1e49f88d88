/**
 * Unwrapping: find the program a simple command really runs. `sudo -E timeout 60 env A=1 uv run pytest
 * -x` runs `pytest -x`; `bash -lc "make restart"` runs the script `make restart`. Wrappers are recorded
 * (outermost first) so `explain` can show what was stripped.
 */

/** A word of a simple command, after quote removal. */
export interface ShellWord {
  readonly value: string;
  readonly quoted: boolean;
  /** Contains an expansion or substitution: the runtime value is unknown. */
  readonly dynamic: boolean;
  /** Contains an unquoted glob character. */
  readonly glob: boolean;
}

/** The result of unwrapping one simple command. */
export interface Unwrapped {
  /** The normalized program (basename, version suffix stripped), or '' when the command is only assignments. */
  readonly program: string;
  readonly args: readonly ShellWord[];
  /** Wrappers stripped, outermost first (`sudo`, `timeout`, `bash -c`, `uv run`, `python -m`…). */
  readonly wrappers: readonly string[];
  /** Environment assignments stripped (`FOO=1`), in order. */
  readonly assignments: readonly string[];
  /** A script the command runs (`bash -c SCRIPT`, `eval …`, `env -S …`): the caller parses it recursively. */
  readonly script?: string;
  /** A directory the wrapper changes into (`env -C DIR`, `sudo -D DIR`). */
  readonly chdir?: string;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const PYTHON = /^(python|pypy)(\d+(\.\d+)*)?$/;
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish']);
const MAX_WRAPPERS = 24;

/** Options description for {@link skipOptions}: which options take a separate value. */
interface OptionSpec {
  /** Short option letters that take a value (`u` for `-u root` / `-uroot`). */
  readonly short?: string;
  /** Long options that take a value (`--user`); `--user=root` is always understood. */
  readonly long?: readonly string[];
  /** Short options whose value is always glued (`-i.bak` for sed) — never consume the next word. */
  readonly optionalShort?: string;
}

interface SkipResult {
  /** Index of the first positional word. */
  readonly index: number;
  /** Option values seen, by option name (`-u`, `--user`). */
  readonly values: ReadonlyMap<string, string>;
  readonly flags: ReadonlySet<string>;
}

/**
 * Skip options starting at `i`. Stops at the first positional word, or after `--`. Short clusters
 * (`-lc`) are recorded letter by letter in `flags`.
 */
export function skipOptions(words: readonly ShellWord[], i: number, spec: OptionSpec = {}): SkipResult {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const shortWithValue = spec.short ?? '';
  const longWithValue = new Set(spec.long ?? []);
  while (i < words.length) {
    const w = words[i]!.value;
    if (w === '--') return { index: i + 1, values, flags };
    if (w.startsWith('--') && w.length > 2) {
      const eq = w.indexOf('=');
      if (eq !== -1) {
        values.set(w.slice(0, eq), w.slice(eq + 1));
        i++;
        continue;
      }
      if (longWithValue.has(w)) {
        values.set(w, words[i + 1]?.value ?? '');
        i += 2;
        continue;
      }
      flags.add(w);
      i++;
      continue;
    }
    if (w.startsWith('-') && w.length > 1) {
      let consumedNext = false;
      for (let k = 1; k < w.length; k++) {
        const letter = w[k]!;
        if (shortWithValue.includes(letter)) {
          const attached = w.slice(k + 1);
          if (attached.length > 0) {
            values.set(`-${letter}`, attached);
          } else if (spec.optionalShort?.includes(letter)) {
            values.set(`-${letter}`, '');
          } else {
            values.set(`-${letter}`, words[i + 1]?.value ?? '');
            consumedNext = true;
          }
          break;
        }
        flags.add(`-${letter}`);
      }
      i += consumedNext ? 2 : 1;
      continue;
    }
    break;
  }
  return { index: i, values, flags };
}

/**
 * Basename (after `/` or a Windows `\\`), without an npm-style `@version` suffix and without the
 * Windows launcher extensions `.exe`/`.cmd`/`.bat`/`.com` (`C:\\…\\npm.cmd test` runs `npm test`);
 * `py.test` is pytest.
 */
export function normalizeProgram(word: string): string {
  let name = word;
  const slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  if (slash !== -1 && slash < name.length - 1) name = name.slice(slash + 1);
  name = name.replace(/\.(?:exe|cmd|bat|com)$/i, '') || name;
  const at = name.indexOf('@');
  if (at > 0) name = name.slice(0, at);
  if (name === 'py.test') return 'pytest';
  return name;
}

type Step =
  /** Not a wrapper here: the current word is the program. */
  | { readonly kind: 'program' }
  /** A wrapper: continue unwrapping at `next`. */
  | { readonly kind: 'wrapper'; readonly label: string; readonly next: number; readonly chdir?: string }
  /** A wrapper that runs a script string. */
  | { readonly kind: 'script'; readonly label: string; readonly script: string; readonly chdir?: string }
  /** A module/program named by the wrapper itself (`python -m X`, `npx X@1`). */
  | { readonly kind: 'named'; readonly label: string; readonly program: string; readonly next: number };

/** Unwrap a simple command's words. Never throws. */
export function unwrapCommand(words: readonly ShellWord[]): Unwrapped {
  const wrappers: string[] = [];
  const assignments: string[] = [];
  let chdir: string | undefined;
  let i = 0;
  for (let guard = 0; guard < MAX_WRAPPERS; guard++) {
    while (i < words.length && ASSIGNMENT.test(words[i]!.value)) {
      assignments.push(words[i]!.value);
      i++;
    }
    const word = words[i];
    if (!word) return result('', [], wrappers, assignments, undefined, chdir);
    const step = unwrapStep(normalizeProgram(word.value), words, i);
    switch (step.kind) {
      case 'program': {
        const program = normalizeProgram(word.value);
        return result(program, normalizeScriptArgs(program, words.slice(i + 1)), wrappers, assignments, undefined, chdir);
      }
      case 'wrapper':
        wrappers.push(step.label);
        if (step.chdir !== undefined) chdir = joinDir(chdir, step.chdir);
        i = step.next;
        break;
      case 'script':
        wrappers.push(step.label);
        if (step.chdir !== undefined) chdir = joinDir(chdir, step.chdir);
        return result('', [], wrappers, assignments, step.script, chdir);
      case 'named': {
        wrappers.push(step.label);
        const program = normalizeProgram(step.program);
        // The named program may itself be a wrapper (`python -m uv run …` is rare; `npx tsx` is not one).
        const rest = words.slice(step.next);
        return result(program, normalizeScriptArgs(program, rest), wrappers, assignments, undefined, chdir);
      }
      default:
        return assertNeverStep(step);
    }
  }
  return result('', [], wrappers, assignments, undefined, chdir);
}

function assertNeverStep(value: never): never {
  throw new Error(`Unexpected unwrap step: ${JSON.stringify(value)}`);
}

function result(
  program: string,
  args: readonly ShellWord[],
  wrappers: readonly string[],
  assignments: readonly string[],
  script: string | undefined,
  chdir: string | undefined,
): Unwrapped {
  return {
    program,
    args,
    wrappers,
    assignments,
    ...(script !== undefined ? { script } : {}),
    ...(chdir !== undefined ? { chdir } : {}),
  };
}

function joinDir(base: string | undefined, next: string): string {
  if (next.startsWith('/') || base === undefined) return next;
  return `${base}/${next}`;
}

/** One unwrapping step for the program word at `i`. */
function unwrapStep(name: string, words: readonly ShellWord[], i: number): Step {
  const next = i + 1;
  switch (name) {
    case 'sudo':
    case 'doas': {
      const r = skipOptions(words, next, {
        short: 'ughpCDrtTUa',
        long: ['--user', '--group', '--host', '--prompt', '--close-from', '--chdir', '--role', '--type', '--command-timeout', '--other-user'],
      });
      if (r.index >= words.length) return { kind: 'program' };
      const dir = r.values.get('-D') ?? r.values.get('--chdir');
      return dir !== undefined ? { kind: 'wrapper', label: name, next: r.index, chdir: dir } : { kind: 'wrapper', label: name, next: r.index };
    }
    case 'env': {
      const r = skipOptions(words, next, { short: 'uCSP', long: ['--unset', '--chdir', '--split-string'] });
      const split = r.values.get('-S') ?? r.values.get('--split-string');
      const dir = r.values.get('-C') ?? r.values.get('--chdir');
      if (split !== undefined) {
        const script = [split, ...words.slice(r.index).map((w) => quoteForScript(w.value))].join(' ');
        return dir !== undefined ? { kind: 'script', label: 'env -S', script, chdir: dir } : { kind: 'script', label: 'env -S', script };
      }
      if (r.index >= words.length) return { kind: 'program' };
      return dir !== undefined ? { kind: 'wrapper', label: 'env', next: r.index, chdir: dir } : { kind: 'wrapper', label: 'env', next: r.index };
    }
    case 'timeout':
    case 'gtimeout': {
      const r = skipOptions(words, next, { short: 'sk', long: ['--signal', '--kill-after'] });
      // r.index is the duration; the command follows it.
      if (r.index + 1 >= words.length) return { kind: 'program' };
      return { kind: 'wrapper', label: 'timeout', next: r.index + 1 };
    }
    case 'nice': {
      const r = skipOptions(words, next, { short: 'n', long: ['--adjustment'] });
      return r.index < words.length ? { kind: 'wrapper', label: 'nice', next: r.index } : { kind: 'program' };
    }
    case 'ionice': {
      const r = skipOptions(words, next, { short: 'cnpPu', long: ['--class', '--classdata', '--pid', '--pgid', '--uid'] });
      return r.index < words.length ? { kind: 'wrapper', label: 'ionice', next: r.index } : { kind: 'program' };
    }
    case 'nohup':
    case 'setsid':
    case 'unbuffer':
    case 'chronic':
    case 'builtin':
    case 'corepack': {
      const r = skipOptions(words, next);
      return r.index < words.length ? { kind: 'wrapper', label: name, next: r.index } : { kind: 'program' };
    }
    case 'time': {
      const r = skipOptions(words, next, { short: 'of', long: ['--output', '--format'] });
      return r.index < words.length ? { kind: 'wrapper', label: 'time', next: r.index } : { kind: 'program' };
    }
    case 'command': {
      const r = skipOptions(words, next);
      // `command -v X` looks X up; it does not run it.
      if (r.flags.has('-v') || r.flags.has('-V')) return { kind: 'program' };
      return r.index < words.length ? { kind: 'wrapper', label: 'command', next: r.index } : { kind: 'program' };
    }
    case 'exec': {
      const r = skipOptions(words, next, { short: 'a' });
      return r.index < words.length ? { kind: 'wrapper', label: 'exec', next: r.index } : { kind: 'program' };
    }
    case 'stdbuf': {
      const r = skipOptions(words, next, { short: 'ioe', long: ['--input', '--output', '--error'] });
      return r.index < words.length ? { kind: 'wrapper', label: 'stdbuf', next: r.index } : { kind: 'program' };
    }
    case 'xargs': {
      const r = skipOptions(words, next, {
        short: 'ILnPsdEa',
        long: ['--max-args', '--max-procs', '--delimiter', '--arg-file', '--replace', '--max-lines', '--eof', '--max-chars', '--process-slot-var'],
      });
      return r.index < words.length ? { kind: 'wrapper', label: 'xargs', next: r.index } : { kind: 'program' };
    }
    case 'dotenv': {
      const r = skipOptions(words, next, { short: 'ecvp' });
      return r.index < words.length ? { kind: 'wrapper', label: 'dotenv', next: r.index } : { kind: 'program' };
    }
    case 'eval': {
      if (next >= words.length) return { kind: 'program' };
      return { kind: 'script', label: 'eval', script: words.slice(next).map((w) => w.value).join(' ') };
    }
    case 'uvx':
      return toolRunner(words, next, 'uvx', { short: 'p', long: ['--from', '--with', '--python', '--with-editable', '--with-requirements', '--index', '--index-url'] });
    case 'npx':
    case 'pnpx':
    case 'bunx':
      return packageRunner(words, next, name);
    default:
      break;
  }
  if (SHELLS.has(name)) return shellStep(name, words, next);
  if (PYTHON.test(name)) return pythonStep(words, next);
  switch (name) {
    case 'uv':
      return uvStep(words, next);
    case 'poetry':
    case 'pipenv':
    case 'pdm':
    case 'rye':
    case 'hatch':
    case 'pixi':
      return runSubcommand(words, next, name, { short: 'CPe', long: ['--directory', '--project', '--env', '--manifest-path', '--environment'] });
    case 'conda':
    case 'mamba':
    case 'micromamba':
      return condaStep(words, next, name);
    case 'pipx': {
      if (words[next]?.value !== 'run') return { kind: 'program' };
      return toolRunner(words, next + 1, 'pipx run', { long: ['--spec', '--python', '--pip-args'] });
    }
    case 'npm':
      return npmStep(words, next);
    case 'pnpm':
      return pnpmStep(words, next);
    case 'yarn':
      return yarnStep(words, next);
    case 'bun': {
      const r = skipOptions(words, next, { long: ['--cwd', '--config'] });
      if (words[r.index]?.value === 'x') return packageRunner(words, r.index + 1, 'bun x');
      return { kind: 'program' };
    }
    default:
      return { kind: 'program' };
  }
}

function shellStep(name: string, words: readonly ShellWord[], i: number): Step {
  let wantScript = false;
  while (i < words.length) {
    const w = words[i]!.value;
    if (w === '--' || w === '-') {
      i++;
      break;
    }
    if ((w === '-o' || w === '+o' || w === '--rcfile' || w === '--init-file' || w === '-O' || w === '+O') && i + 1 < words.length) {
      i += 2;
      continue;
    }
    if (w.startsWith('--')) {
      i++;
      continue;
    }
    if ((w.startsWith('-') || w.startsWith('+')) && w.length > 1) {
      if (w.slice(1).includes('c')) wantScript = true;
      i++;
      continue;
    }
    break;
  }
  const script = words[i];
  if (wantScript && script) return { kind: 'script', label: `${name} -c`, script: script.value };
  return { kind: 'program' };
}

function pythonStep(words: readonly ShellWord[], i: number): Step {
  while (i < words.length) {
    const w = words[i]!.value;
    if (w === '-m') {
      const mod = words[i + 1];
      return mod ? { kind: 'named', label: 'python -m', program: mod.value, next: i + 2 } : { kind: 'program' };
    }
    if (w.startsWith('-m') && w.length > 2) return { kind: 'named', label: 'python -m', program: w.slice(2), next: i + 1 };
    if (w === '-W' || w === '-X' || w === '--check-hash-based-pycs') {
      i += 2;
      continue;
    }
    if (w.startsWith('-') && w !== '-' && w !== '-c' && !w.startsWith('-c')) {
      i++;
      continue;
    }
    break;
  }
  return { kind: 'program' };
}

const UV_GLOBAL = { long: ['--directory', '--project', '--config-file', '--cache-dir', '--color', '--python', '--allow-insecure-host'], short: 'p' } as const;
const UV_RUN = {
  short: 'pP',
  long: [
    '--with',
    '--with-editable',
    '--with-requirements',
    '--extra',
    '--group',
    '--only-group',
    '--no-group',
    '--python',
    '--package',
    '--project',
    '--directory',
    '--env-file',
    '--index',
    '--index-url',
    '--extra-index-url',
    '--find-links',
    '--config-file',
    '--cache-dir',
    '--refresh-package',
    '--upgrade-package',
    '--reinstall-package',
    '--prerelease',
    '--resolution',
    '--link-mode',
    '--exclude-newer',
    '--python-platform',
  ],
} as const;

function uvStep(words: readonly ShellWord[], i: number): Step {
  const g = skipOptions(words, i, UV_GLOBAL);
  const sub = words[g.index]?.value;
  if (sub === 'run') {
    let j = g.index + 1;
    while (j < words.length) {
      const w = words[j]!.value;
      if (w === '-m' || w === '--module') {
        // `uv run -m pytest` runs a module.
        const mod = words[j + 1];
        return mod ? { kind: 'named', label: 'uv run -m', program: mod.value, next: j + 2 } : { kind: 'program' };
      }
      if (w === '--') {
        j++;
        break;
      }
      if (!w.startsWith('-') || w === '-') break;
      j = nextOptionEnd(words, j, UV_RUN);
    }
    return j < words.length ? { kind: 'wrapper', label: 'uv run', next: j } : { kind: 'program' };
  }
  if (sub === 'tool' && words[g.index + 1]?.value === 'run') {
    return toolRunner(words, g.index + 2, 'uv tool run', { short: 'p', long: ['--from', '--with', '--python'] });
  }
  if (sub === 'pip') {
    // `uv pip install` is pip.
    return { kind: 'named', label: 'uv', program: 'pip', next: g.index + 1 };
  }
  return { kind: 'program' };
}

/** The index after the single option at `j` (with its value when it takes one). */
function nextOptionEnd(words: readonly ShellWord[], j: number, spec: OptionSpec): number {
  const w = words[j]!.value;
  if (w.startsWith('--')) {
    if (w.includes('=')) return j + 1;
    return (spec.long ?? []).includes(w) ? j + 2 : j + 1;
  }
  const letter = w[1] ?? '';
  if ((spec.short ?? '').includes(letter) && w.length === 2) return j + 2;
  return j + 1;
}

function toolRunner(words: readonly ShellWord[], i: number, label: string, spec: OptionSpec): Step {
  const r = skipOptions(words, i, spec);
  const program = words[r.index];
  return program ? { kind: 'named', label, program: program.value, next: r.index + 1 } : { kind: 'program' };
}

/** `npx [opts] X`, `pnpx X`, `bunx X`, `bun x X`. `npx -c "script"` runs a script. */
function packageRunner(words: readonly ShellWord[], i: number, label: string): Step {
  const r = skipOptions(words, i, { short: 'pc', long: ['--package', '--call', '--registry', '--cache'] });
  const call = r.values.get('-c') ?? r.values.get('--call');
  if (call !== undefined) return { kind: 'script', label, script: call };
  const program = words[r.index];
  return program ? { kind: 'named', label, program: program.value, next: r.index + 1 } : { kind: 'program' };
}

function runSubcommand(words: readonly ShellWord[], i: number, name: string, global: OptionSpec): Step {
  const g = skipOptions(words, i, global);
  if (words[g.index]?.value !== 'run') return { kind: 'program' };
  const r = skipOptions(words, g.index + 1, { short: 'e', long: ['--environment', '--env'] });
  const program = words[r.index];
  if (!program) return { kind: 'program' };
  if (name === 'hatch' && /^[\w.-]+:/.test(program.value)) {
    // `hatch run test:pytest` runs pytest in env "test".
    return { kind: 'named', label: 'hatch run', program: program.value.replace(/^[\w.-]+:/, ''), next: r.index + 1 };
  }
  return { kind: 'wrapper', label: `${name} run`, next: r.index };
}

function condaStep(words: readonly ShellWord[], i: number, name: string): Step {
  if (words[i]?.value !== 'run') return { kind: 'program' };
  const r = skipOptions(words, i + 1, { short: 'np', long: ['--name', '--prefix', '--cwd'] });
  return r.index < words.length ? { kind: 'wrapper', label: `${name} run`, next: r.index } : { kind: 'program' };
}

const NPM_GLOBAL = { short: 'wC', long: ['--prefix', '--workspace', '--registry', '--cache', '--userconfig', '--loglevel'] } as const;

function npmStep(words: readonly ShellWord[], i: number): Step {
  const g = skipOptions(words, i, NPM_GLOBAL);
  const sub = words[g.index]?.value;
  if (sub !== 'exec' && sub !== 'x') return { kind: 'program' };
  return packageRunner(words, g.index + 1, 'npm exec');
}

const PNPM_GLOBAL = {
  short: 'FC',
  long: ['--filter', '--dir', '--workspace-dir', '--reporter', '--loglevel', '--filter-prod', '--test-pattern', '--changed-files-ignore-pattern'],
} as const;

function pnpmStep(words: readonly ShellWord[], i: number): Step {
  const g = skipOptions(words, i, PNPM_GLOBAL);
  const sub = words[g.index]?.value;
  if (sub === 'exec') {
    const r = skipOptions(words, g.index + 1, PNPM_GLOBAL);
    if (r.flags.has('-c') || r.flags.has('--shell-mode')) {
      const script = words.slice(r.index).map((w) => w.value).join(' ');
      return { kind: 'script', label: 'pnpm exec', script };
    }
    return r.index < words.length ? { kind: 'wrapper', label: 'pnpm exec', next: r.index } : { kind: 'program' };
  }
  if (sub === 'dlx') {
    const r = skipOptions(words, g.index + 1, { long: ['--package'] });
    if (r.flags.has('-c') || r.flags.has('--shell-mode')) {
      return { kind: 'script', label: 'pnpm dlx', script: words.slice(r.index).map((w) => w.value).join(' ') };
    }
    const program = words[r.index];
    return program ? { kind: 'named', label: 'pnpm dlx', program: program.value, next: r.index + 1 } : { kind: 'program' };
  }
  return { kind: 'program' };
}

function yarnStep(words: readonly ShellWord[], i: number): Step {
  const g = skipOptions(words, i, { long: ['--cwd'] });
  const sub = words[g.index]?.value;
  if (sub === 'dlx') {
    const r = skipOptions(words, g.index + 1, { short: 'p', long: ['--package'] });
    const program = words[r.index];
    return program ? { kind: 'named', label: 'yarn dlx', program: program.value, next: r.index + 1 } : { kind: 'program' };
  }
  if (sub === 'exec') {
    const r = skipOptions(words, g.index + 1);
    return r.index < words.length ? { kind: 'wrapper', label: 'yarn exec', next: r.index } : { kind: 'program' };
  }
  return { kind: 'program' };
}

const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);

/**
 * `npm run test` ≡ `npm test`: drop the first `run`/`run-script` of a package manager, and read npm's
 * `t`/`tst` aliases as `test`. Options before the script are kept (`pnpm --filter web test`).
 */
export function normalizeScriptArgs(program: string, args: readonly ShellWord[]): readonly ShellWord[] {
  if (!SCRIPT_RUNNERS.has(program)) return args;
  const spec: OptionSpec = program === 'pnpm' ? PNPM_GLOBAL : program === 'npm' ? NPM_GLOBAL : { long: ['--cwd', '--config'] };
  const r = skipOptions(args, 0, spec);
  const first = args[r.index];
  if (!first || args[r.index - 1]?.value === '--') return args;
  if (first.value === 'run' || first.value === 'run-script') return [...args.slice(0, r.index), ...args.slice(r.index + 1)];
  if ((program === 'npm' || program === 'pnpm') && (first.value === 't' || first.value === 'tst')) {
    return [...args.slice(0, r.index), { ...first, value: 'test' }, ...args.slice(r.index + 1)];
  }
  return args;
}

function quoteForScript(value: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
