import type { ShellSegment } from './parse-shell-command.ts';
import { parseApplyPatch, parseUnifiedDiff, type PatchFileOp } from './patch-text.ts';
import { powerShellMutation } from './powershell-mutation.ts';
import type { ShellWord } from './unwrap-command.ts';

/**
 * What a mutation does to a target, which matters for edit hygiene:
 * - `edit`: rewrites part of existing content (`sed -i`, `perl -pi`, patches) — needs a prior read;
 * - `write`: replaces the whole content (`>`, `tee`, `cp` destination) — the turn knows the result;
 * - `append`: adds to the end (`>>`, `tee -a`);
 * - `create`: creates (`touch`, `mkdir`, `ln`, patch "Add File");
 * - `delete`, `move`: removes or renames;
 * - `other`: tool-driven rewrites (formatters, `chmod`) that need no read.
 */
export type MutationEffect = 'edit' | 'write' | 'append' | 'create' | 'delete' | 'move' | 'other';

/** One target of a mutation, as written in the command (relative to the segment's directory). */
export interface MutationTarget {
  readonly path: string;
  readonly effect: MutationEffect;
  /** The path is an unquoted glob pattern (`rm *.pyc`): match it, do not compare it. */
  readonly glob: boolean;
}

/** Result of {@link analyzeMutation}. */
export interface MutationAnalysis {
  /** True when the command changes files (even when the targets are unknown, e.g. `git stash pop`). */
  readonly mutates: boolean;
  /** Literal target paths, as written (relative to the segment's directory, or absolute). */
  readonly paths: readonly string[];
  /** Target glob patterns (`rm build/*.o`). */
  readonly globs: readonly string[];
  readonly targets: readonly MutationTarget[];
}

const NONE: MutationAnalysis = { mutates: false, paths: [], globs: [], targets: [] };

/** Option spec for {@link operands}: which options take a separate value. */
interface Spec {
  readonly short?: string;
  readonly long?: readonly string[];
}

/**
 * Decide whether a segment changes files and which ones. Read-only commands (`cat`, `grep`, `pytest
 * path`, `git diff`, `ls`…) never mutate, whatever paths they name; only the paths a mutation targets
 * are returned. Dynamic paths (`$OUT/x`) are dropped: their value is unknown.
 */
export function analyzeMutation(segment: ShellSegment): MutationAnalysis {
  const targets: MutationTarget[] = [];
  let mutates = false;
  for (const r of segment.redirects) {
    const effect = redirectEffect(r.op, r.target?.value);
    if (!effect || !r.target) continue;
    mutates = true;
    addTarget(targets, r.target, effect);
  }
  const fromProgram = programMutation(segment);
  if (fromProgram) {
    mutates ||= fromProgram.mutates;
    targets.push(...fromProgram.targets);
  }
  if (!mutates && targets.length === 0) return NONE;
  return {
    mutates: true,
    paths: unique(targets.filter((t) => !t.glob).map((t) => t.path)),
    globs: unique(targets.filter((t) => t.glob).map((t) => t.path)),
    targets,
  };
}

interface ProgramMutation {
  readonly mutates: boolean;
  readonly targets: readonly MutationTarget[];
}

const INSTALLERS: Readonly<Record<string, ReadonlySet<string>>> = {
  npm: new Set(['install', 'i', 'ci', 'add', 'uninstall', 'remove', 'rm', 'un', 'update', 'up', 'upgrade', 'dedupe', 'prune', 'version']),
  pnpm: new Set(['install', 'i', 'add', 'remove', 'rm', 'uninstall', 'un', 'update', 'up', 'upgrade', 'dedupe', 'prune', 'import']),
  yarn: new Set(['install', 'add', 'remove', 'upgrade', 'up', 'dedupe', 'import']),
  bun: new Set(['install', 'i', 'add', 'a', 'remove', 'rm', 'update', 'upgrade']),
  uv: new Set(['sync', 'add', 'remove', 'lock', 'init', 'version']),
  poetry: new Set(['install', 'add', 'remove', 'lock', 'update', 'version', 'init']),
  cargo: new Set(['add', 'remove', 'rm', 'update', 'generate-lockfile', 'fix', 'fmt', 'new', 'init']),
  go: new Set(['get', 'generate', 'fmt', 'mod', 'work']),
  bundle: new Set(['install', 'update', 'add', 'remove', 'lock']),
  composer: new Set(['install', 'update', 'require', 'remove']),
};

function programMutation(segment: ShellSegment): ProgramMutation | undefined {
  const args = segment.argWords;
  const values = segment.args;
  switch (segment.program) {
    case 'sed':
    case 'gsed':
      return sedMutation(args);
    case 'perl':
      return perlMutation(args);
    case 'awk':
    case 'gawk': {
      const i = values.findIndex((v, k) => (v === '-i' && values[k + 1] === 'inplace') || v === '--include=inplace');
      if (i === -1) return undefined;
      const ops = operands(args, { short: 'ifvF', long: ['--include', '--file', '--assign', '--field-separator'] });
      return edits(ops.slice(hasScriptOption(values, ['-f', '--file']) ? 0 : 1), 'edit');
    }
    case 'tee': {
      const append = values.includes('-a') || values.includes('--append');
      return edits(operands(args, {}), append ? 'append' : 'write');
    }
    case 'mv':
      return edits(withTargetDir(operands(args, { short: 'tS', long: ['--target-directory', '--suffix'] }), values), 'move');
    case 'cp': {
      const ops = operands(args, { short: 'tS', long: ['--target-directory', '--suffix'] });
      const dest = targetDir(values) ?? lastWord(ops);
      return edits(dest ? [dest] : [], 'write');
    }
    case 'rm':
    case 'unlink':
    case 'rmdir':
    case 'shred':
      return edits(operands(args, {}), 'delete');
    case 'touch':
      return edits(operands(args, { short: 'rdt', long: ['--reference', '--date'] }), 'create');
    case 'mkdir':
      return edits(operands(args, { short: 'm', long: ['--mode', '--context'] }), 'create');
    case 'truncate':
      return edits(operands(args, { short: 'sr', long: ['--size', '--reference'] }), 'write');
    case 'ln': {
      const ops = operands(args, { short: 'tS', long: ['--target-directory', '--suffix'] });
      const dest = targetDir(values) ?? (ops.length >= 2 ? lastWord(ops) : undefined);
      return edits(dest ? [dest] : [], 'create');
    }
    case 'install': {
      const ops = operands(args, { short: 'mogStT', long: ['--mode', '--owner', '--group', '--suffix', '--target-directory'] });
      if (values.includes('-d') || values.includes('--directory')) return edits(ops, 'create');
      const dest = targetDir(values) ?? lastWord(ops);
      return edits(dest ? [dest] : [], 'write');
    }
    case 'chmod':
    case 'chown':
    case 'chgrp': {
      const ops = operands(args, { long: ['--reference'] });
      const hasReference = values.some((v) => v.startsWith('--reference'));
      return edits(hasReference ? ops : ops.slice(1), 'other');
    }
    case 'dd': {
      const of = args.find((w) => w.value.startsWith('of='));
      return of ? edits([{ ...of, value: of.value.slice(3) }], 'write') : undefined;
    }
    case 'curl': {
      const out = optionValue(args, ['-o', '--output']);
      return out ? edits([out], 'write') : undefined;
    }
    case 'wget': {
      const out = optionValue(args, ['-O', '--output-document']);
      return out ? edits([out], 'write') : undefined;
    }
    case 'patch':
      return patchMutation(segment);
    case 'apply_patch':
    case 'applypatch':
      return applyPatchMutation(segment);
    case 'git':
      return gitMutation(segment);
    case 'find':
      if (values.includes('-delete') || values.some((v) => v === '-exec' || v === '-execdir' || v === '-ok')) {
        return { mutates: values.includes('-delete') || execMutates(values), targets: [] };
      }
      return undefined;
    default:
      return powerShellFileMutation(segment) ?? formatterMutation(segment) ?? installerMutation(segment);
  }
}

/** PowerShell's file cmdlets (`Remove-Item`, `Set-Content`…; see powershell-mutation.ts). */
function powerShellFileMutation(segment: ShellSegment): ProgramMutation | undefined {
  const found = powerShellMutation(segment.program, segment.argWords);
  if (found === undefined) return undefined;
  const targets: MutationTarget[] = [];
  for (const t of found.targets) addTarget(targets, t.word, t.effect);
  return { mutates: true, targets };
}

function sedMutation(args: readonly ShellWord[]): ProgramMutation | undefined {
  let inPlace = false;
  let scriptGiven = false;
  const positional: ShellWord[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (v === '-i' || v === '-I' || v === '--in-place') {
      inPlace = true;
      // BSD `sed -i '' …`: an empty backup suffix as its own word.
      if (args[i + 1]?.value === '') i++;
      continue;
    }
    if (v.startsWith('--in-place=') || /^-[nrEsuz]*i/.test(v)) {
      inPlace = true;
      continue;
    }
    if (v === '-e' || v === '--expression' || v === '-f' || v === '--file') {
      scriptGiven = true;
      i++;
      continue;
    }
    if (v.startsWith('--expression=') || v.startsWith('--file=') || /^-[nrEsuz]*[ef]./.test(v)) {
      scriptGiven = true;
      continue;
    }
    if (v === '-l' || v === '--line-length') {
      i++;
      continue;
    }
    if (v.startsWith('-') && v.length > 1) continue;
    positional.push(w);
  }
  if (!inPlace) return undefined;
  return edits(scriptGiven ? positional : positional.slice(1), 'edit');
}

function perlMutation(args: readonly ShellWord[]): ProgramMutation | undefined {
  let inPlace = false;
  let scriptGiven = false;
  const positional: ShellWord[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (v.startsWith('-') && v.length > 1) {
      // Clusters such as -pi, -i.bak, -pi -e, -0777 -pi. An `e`/`E` ends the cluster; the script follows.
      const cluster = v.slice(1);
      const eIndex = cluster.search(/[eE]/);
      const iIndex = cluster.indexOf('i');
      if (iIndex !== -1 && (eIndex === -1 || iIndex < eIndex)) inPlace = true;
      if (eIndex !== -1 && (iIndex === -1 || eIndex < iIndex)) {
        scriptGiven = true;
        if (eIndex === cluster.length - 1) i++;
      }
      if (/^[IMmx]$/.test(cluster[0] ?? '') && cluster.length === 1) i++;
      continue;
    }
    positional.push(w);
  }
  if (!inPlace) return undefined;
  return edits(scriptGiven ? positional : positional.slice(1), 'edit');
}

function patchMutation(segment: ShellSegment): ProgramMutation {
  const values = segment.args;
  if (values.includes('--dry-run') || values.includes('-C') || values.includes('--check')) return { mutates: false, targets: [] };
  const stripValue = optionValue(segment.argWords, ['-p', '--strip']);
  const strip = stripValue && /^\d+$/.test(stripValue.value) ? Number(stripValue.value) : undefined;
  const body = segment.redirects.map((r) => r.heredoc ?? (r.op === '<<<' ? r.target?.value : undefined)).filter((b): b is string => !!b);
  const ops = body.flatMap((b) => parseUnifiedDiff(b, strip));
  const targets: MutationTarget[] = patchTargets(ops);
  const ops2 = operands(segment.argWords, { short: 'pidoDBrVYzFg', long: ['--strip', '--input', '--directory', '--output', '--reject-file', '--suffix', '--prefix'] });
  const original = ops2[0];
  if (original && !original.dynamic) targets.push({ path: original.value, effect: 'edit', glob: false });
  return { mutates: true, targets };
}

function applyPatchMutation(segment: ShellSegment): ProgramMutation {
  const texts = [
    ...segment.redirects.map((r) => r.heredoc ?? (r.op === '<<<' ? r.target?.value : undefined)),
    ...segment.args,
  ].filter((t): t is string => !!t);
  const ops = texts.flatMap((t) => parseApplyPatch(t));
  return { mutates: true, targets: patchTargets(ops) };
}

/** Targets of patch operations: updates are edits, adds creations, deletes deletions, renames moves. */
export function patchTargets(ops: readonly PatchFileOp[]): MutationTarget[] {
  const out: MutationTarget[] = [];
  for (const op of ops) {
    if (op.moveTo !== undefined) {
      out.push({ path: op.path, effect: 'move', glob: false }, { path: op.moveTo, effect: 'move', glob: false });
      continue;
    }
    out.push({ path: op.path, effect: op.op === 'add' ? 'create' : op.op === 'delete' ? 'delete' : 'edit', glob: false });
  }
  return out;
}

const GIT_GLOBAL: Spec = { short: 'Cc', long: ['--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env'] };
const GIT_UNKNOWN_TARGETS = new Set(['switch', 'merge', 'rebase', 'pull', 'cherry-pick', 'revert', 'am', 'stash', 'reset', 'clean', 'submodule', 'worktree', 'sparse-checkout']);

function gitMutation(segment: ShellSegment): ProgramMutation | undefined {
  const args = segment.argWords;
  const { index, dir } = gitSubcommand(args);
  const sub = args[index]?.value;
  if (sub === undefined) return undefined;
  const rest = args.slice(index + 1);
  const restValues = rest.map((w) => w.value);
  const prefix = (w: ShellWord): ShellWord => (dir && !w.value.startsWith('/') ? { ...w, value: `${dir}/${w.value}` } : w);
  switch (sub) {
    case 'mv':
      return edits(operands(rest, {}).map(prefix), 'move');
    case 'rm':
      if (restValues.includes('-n') || restValues.includes('--dry-run')) return undefined;
      return edits(operands(rest, {}).map(prefix), restValues.includes('--cached') ? 'other' : 'delete');
    case 'restore': {
      const staged = restValues.includes('--staged') || restValues.includes('-S');
      const worktree = restValues.includes('--worktree') || restValues.includes('-W');
      if (staged && !worktree) return undefined;
      return edits(operands(rest, { short: 's', long: ['--source', '--pathspec-from-file'] }).map(prefix), 'write');
    }
    case 'checkout': {
      const dd = restValues.indexOf('--');
      if (dd !== -1) return edits(rest.slice(dd + 1).map(prefix), 'write');
      if (restValues.some((v) => v === '-b' || v === '-B' || v === '--orphan' || v === '-')) return { mutates: true, targets: [] };
      const ops = operands(rest, { short: 'bB', long: ['--orphan', '--conflict', '--pathspec-from-file'] });
      // `git checkout <branch>` switches branches; `git checkout <file>` restores. Both forms are reported;
      // a branch name only matters if it happens to equal a changed path.
      return { mutates: true, targets: ops.filter((w) => !w.dynamic).map((w) => ({ path: prefix(w).value, effect: 'write' as const, glob: w.glob })) };
    }
    case 'apply': {
      if (['--check', '--stat', '--numstat', '--summary'].some((f) => restValues.includes(f)) && !restValues.includes('--apply')) return undefined;
      if (restValues.includes('--cached')) return undefined;
      const bodies = segment.redirects.map((r) => r.heredoc ?? (r.op === '<<<' ? r.target?.value : undefined)).filter((b): b is string => !!b);
      const stripValue = optionValue(rest, ['-p']);
      const strip = stripValue && /^\d+$/.test(stripValue.value) ? Number(stripValue.value) : undefined;
      const ops = bodies.flatMap((b) => parseUnifiedDiff(b, strip));
      return { mutates: true, targets: patchTargets(ops).map((t) => ({ ...t, path: prefix({ value: t.path, quoted: false, dynamic: false, glob: false }).value })) };
    }
    default:
      if (GIT_UNKNOWN_TARGETS.has(sub)) {
        if (sub === 'stash' && ['list', 'show'].includes(restValues[0] ?? '')) return undefined;
        if (sub === 'reset' && !restValues.includes('--hard') && !restValues.includes('--merge') && !restValues.includes('--keep')) return undefined;
        if (sub === 'clean' && !restValues.some((v) => /^-[a-zA-Z]*f/.test(v) || v === '--force')) return undefined;
        return { mutates: true, targets: [] };
      }
      return undefined;
  }
}

/** Index of git's subcommand after global options, and the `-C` directory. */
export function gitSubcommand(args: readonly ShellWord[]): { index: number; dir?: string } {
  let dir: string | undefined;
  let i = 0;
  while (i < args.length) {
    const v = args[i]!.value;
    if (v === '-C') {
      const d = args[i + 1]?.value;
      if (d !== undefined) dir = dir && !d.startsWith('/') ? `${dir}/${d}` : d;
      i += 2;
      continue;
    }
    if (v === '-c' || (GIT_GLOBAL.long ?? []).includes(v)) {
      i += 2;
      continue;
    }
    if (v.startsWith('-')) {
      i++;
      continue;
    }
    break;
  }
  return dir === undefined ? { index: i } : { index: i, dir };
}

interface Formatter {
  /** The formatter rewrites files only when one of these flags is present (empty: always). */
  readonly when?: readonly string[];
  /** …and never when one of these is present. */
  readonly unless?: readonly string[];
  /** Subcommands that format (`ruff format`); files follow the subcommand. */
  readonly subcommands?: readonly string[];
}

const FORMATTERS: Readonly<Record<string, Formatter>> = {
  prettier: { when: ['--write', '-w'] },
  black: { unless: ['--check', '--diff'] },
  isort: { unless: ['--check-only', '-c', '--diff', '--check'] },
  autopep8: { when: ['-i', '--in-place'] },
  eslint: { when: ['--fix'] },
  gofmt: { when: ['-w'] },
  goimports: { when: ['-w'] },
  rustfmt: { unless: ['--check'] },
  'clang-format': { when: ['-i'] },
  ruff: { subcommands: ['format', 'check'], unless: ['--check', '--diff'] },
  biome: { subcommands: ['format', 'check', 'lint'], when: ['--write', '--apply', '--fix'] },
  dprint: { subcommands: ['fmt'] },
  deno: { subcommands: ['fmt'], unless: ['--check'] },
};

function formatterMutation(segment: ShellSegment): ProgramMutation | undefined {
  const spec = FORMATTERS[segment.program];
  if (!spec) return undefined;
  const values = segment.args;
  let args = segment.argWords;
  if (spec.subcommands) {
    if (!spec.subcommands.includes(values[0] ?? '')) return undefined;
    // `ruff check` only rewrites with --fix.
    if (segment.program === 'ruff' && values[0] === 'check' && !values.includes('--fix')) return undefined;
    args = args.slice(1);
  }
  if (spec.when && !spec.when.some((f) => values.includes(f))) return undefined;
  if (spec.unless?.some((f) => values.includes(f))) return undefined;
  return edits(operands(args, { long: ['--config', '--line-length', '--target-version', '--ignore-path', '--plugin', '--parser', '--ext'] }), 'other');
}

function installerMutation(segment: ShellSegment): ProgramMutation | undefined {
  const subs = INSTALLERS[segment.program];
  if (!subs) return undefined;
  const sub = segment.args.find((a) => !a.startsWith('-'));
  if (!sub || !subs.has(sub)) return undefined;
  if (segment.program === 'go' && sub === 'mod' && !['tidy', 'vendor', 'edit', 'init'].includes(segment.args[segment.args.indexOf('mod') + 1] ?? '')) {
    return undefined;
  }
  // Lockfiles and manifests change, but which ones depends on the workspace: mtime attribution covers them.
  return { mutates: true, targets: [] };
}

const MUTATING_EXEC = new Set(['rm', 'sed', 'gsed', 'perl', 'mv', 'cp', 'truncate', 'tee', 'chmod', 'touch', 'unlink']);

function execMutates(values: readonly string[]): boolean {
  for (let i = 0; i < values.length; i++) {
    if (values[i] === '-exec' || values[i] === '-execdir' || values[i] === '-ok') {
      const cmd = values[i + 1] ?? '';
      const name = cmd.slice(cmd.lastIndexOf('/') + 1);
      if (MUTATING_EXEC.has(name)) {
        if ((name === 'sed' || name === 'gsed') && !values.slice(i + 2).some((v) => /^-[nrEsuz]*i/.test(v) || v.startsWith('--in-place'))) continue;
        if (name === 'perl' && !values.slice(i + 2).some((v) => /^-\w*i/.test(v))) continue;
        return true;
      }
    }
  }
  return false;
}

function redirectEffect(op: string, target: string | undefined): MutationEffect | undefined {
  if (target === undefined) return undefined;
  if (target.startsWith('/dev/')) return undefined;
  switch (op) {
    case '>':
    case '>|':
    case '&>':
      return 'write';
    case '>>':
    case '&>>':
      return 'append';
    case '>&':
      // `2>&1`, `>&2`, `>&-` duplicate descriptors; `>&file` writes a file.
      return /^\d+-?$|^-$/.test(target) ? undefined : 'write';
    default:
      return undefined;
  }
}

function addTarget(targets: MutationTarget[], word: ShellWord, effect: MutationEffect): void {
  if (word.dynamic || word.value === '') return;
  targets.push({ path: word.value, effect, glob: word.glob });
}

function edits(words: readonly ShellWord[], effect: MutationEffect): ProgramMutation {
  const targets: MutationTarget[] = [];
  for (const w of words) addTarget(targets, w, effect);
  return { mutates: true, targets };
}

/** Positional words (options and their values removed; everything after `--` is positional). */
export function operands(args: readonly ShellWord[], spec: Spec): ShellWord[] {
  const out: ShellWord[] = [];
  const short = spec.short ?? '';
  const long = new Set(spec.long ?? []);
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (v.startsWith('--') && v.length > 2) {
      if (!v.includes('=') && long.has(v)) i++;
      continue;
    }
    if (v.startsWith('-') && v.length > 1 && !w.quoted) {
      const letter = v[1]!;
      if (v.length === 2 && short.includes(letter)) i++;
      continue;
    }
    out.push(w);
  }
  return out;
}

function targetDir(values: readonly string[]): ShellWord | undefined {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === '-t' || v === '--target-directory') {
      const d = values[i + 1];
      return d === undefined ? undefined : { value: d, quoted: false, dynamic: d.includes('$'), glob: false };
    }
    if (v.startsWith('--target-directory=')) {
      const d = v.slice('--target-directory='.length);
      return { value: d, quoted: false, dynamic: d.includes('$'), glob: false };
    }
  }
  return undefined;
}

/** mv: with -t DIR every operand is a source and DIR the destination. */
function withTargetDir(ops: readonly ShellWord[], values: readonly string[]): ShellWord[] {
  const dir = targetDir(values);
  return dir ? [...ops, dir] : [...ops];
}

function lastWord(words: readonly ShellWord[]): ShellWord | undefined {
  return words.length >= 2 ? words[words.length - 1] : undefined;
}

function optionValue(args: readonly ShellWord[], names: readonly string[]): ShellWord | undefined {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    for (const name of names) {
      if (v === name) return args[i + 1];
      if (name.startsWith('--') && v.startsWith(`${name}=`)) return { ...args[i]!, value: v.slice(name.length + 1) };
      if (!name.startsWith('--') && v.startsWith(name) && v.length > name.length) return { ...args[i]!, value: v.slice(name.length) };
    }
  }
  return undefined;
}

function hasScriptOption(values: readonly string[], names: readonly string[]): boolean {
  return values.some((v) => names.includes(v) || names.some((n) => v.startsWith(`${n}=`)));
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
