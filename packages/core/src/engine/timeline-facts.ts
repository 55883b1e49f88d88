import type { ShellToolCall, ToolCall } from '../timeline/tool-call.ts';
import { analyzeMutation, patchTargets, type MutationEffect } from '../shell/analyze-mutation.ts';
import { analyzeRead } from '../shell/analyze-read.ts';
import { parseShellCommand, type ShellSegment } from '../shell/parse-shell-command.ts';
import { parseApplyPatch, parseUnifiedDiff } from '../shell/patch-text.ts';
import { pathLikeArgs } from '../shell/path-like-args.ts';
import { isAbsoluteAgentPath, pathKey, toRepoGlob, toRepoPath, type PathBase } from './normalize-path.ts';

/** A place in the timeline: a call, and a segment of its command (0 for non-shell calls). */
export interface Position {
  readonly call: number;
  readonly segment: number;
}

/** One file a call changes. */
export interface FileMutation {
  /** Repo-relative path, or absolute when outside the repository. */
  readonly key: string;
  /** Repo-relative path, when inside the repository. */
  readonly repoPath?: string;
  readonly effect: MutationEffect;
  /** Segment index for shell calls (mutations inside one command are ordered), 0 otherwise. */
  readonly segment: number;
}

/** What one tool call did, derived once and shared by every check. */
export interface CallFacts {
  readonly index: number;
  readonly call: ToolCall;
  /** Parsed command segments (shell calls only). */
  readonly segments: readonly ShellSegment[];
  /** Files the call changes, with the effect. For shell calls: only mutating commands' targets. */
  readonly mutations: readonly FileMutation[];
  /** Repo-relative glob targets of shell mutations (`rm build/*.o`). */
  readonly mutationGlobs: readonly { readonly glob: string; readonly segment: number }[];
  /** Keys of files whose content the call showed (read tools, `cat`, `sed -n`, `rg … file`). */
  readonly reads: readonly string[];
  /** Keys of every file the call names (tool paths, path-like command arguments, redirections). */
  readonly namedFiles: readonly string[];
}

/** Per-call facts of a timeline, with the path base they were resolved against. */
export interface TimelineFacts {
  readonly base: PathBase;
  readonly calls: readonly CallFacts[];
}

const memo = new WeakMap<readonly ToolCall[], Map<string, TimelineFacts>>();

/**
 * Derive the facts of every call. Pure; never throws on odd inputs. Memoized per calls array and
 * path base: attribution and the heuristics read the same timeline.
 */
export function computeTimelineFacts(calls: readonly ToolCall[], base: PathBase): TimelineFacts {
  const key = `${base.root}\0${base.cwd}`;
  let byBase = memo.get(calls);
  const cached = byBase?.get(key);
  if (cached) return cached;
  const facts: TimelineFacts = { base, calls: calls.map((call, index) => callFacts(call, index, base)) };
  if (!byBase) {
    byBase = new Map();
    memo.set(calls, byBase);
  }
  byBase.set(key, facts);
  return facts;
}

/** Whether a call's file changes happened: failed edit/write/patch calls changed nothing. */
export function mutationTookEffect(call: ToolCall): boolean {
  return call.kind === 'shell' || call.outcome !== 'error';
}

function callFacts(call: ToolCall, index: number, base: PathBase): CallFacts {
  switch (call.kind) {
    case 'shell':
      return shellFacts(call, index, base);
    case 'edit':
    case 'write':
    case 'patch':
      return fileToolFacts(call, index, base);
    case 'read': {
      const reads = keys(call.paths, base);
      return { index, call, segments: [], mutations: [], mutationGlobs: [], reads, namedFiles: reads };
    }
    case 'search':
    case 'web':
    case 'plan':
    case 'other':
      return { index, call, segments: [], mutations: [], mutationGlobs: [], reads: [], namedFiles: keys(call.paths, base) };
    default:
      return assertNeverKind(call);
  }
}

function assertNeverKind(value: never): never {
  throw new Error(`Unexpected tool call: ${JSON.stringify(value)}`);
}

function shellFacts(call: ShellToolCall, index: number, base: PathBase): CallFacts {
  const segments = parseShellCommand(call.command, call.dialect ?? 'sh');
  const mutations: FileMutation[] = [];
  const mutationGlobs: { glob: string; segment: number }[] = [];
  const reads = new Set<string>();
  const named = new Set<string>();
  segments.forEach((segment, s) => {
    const dir = segment.dir;
    const resolvable = (p: string): boolean => isAbsoluteAgentPath(p) || !segment.dirUnknown;
    for (const target of analyzeMutation(segment).targets) {
      if (!resolvable(target.path)) continue;
      if (target.glob) {
        const glob = toRepoGlob(target.path, base, dir);
        if (glob !== undefined) mutationGlobs.push({ glob, segment: s });
        continue;
      }
      const m = mutation(target.path, target.effect, s, base, dir);
      if (m) {
        mutations.push(m);
        named.add(m.key);
      }
    }
    for (const p of analyzeRead(segment)) {
      if (!resolvable(p)) continue;
      const k = pathKey(p, base, dir);
      if (k !== undefined) {
        reads.add(k);
        named.add(k);
      }
    }
    for (const p of pathLikeArgs(segment)) {
      if (!resolvable(p)) continue;
      const k = pathKey(p, base, dir);
      if (k !== undefined) named.add(k);
    }
  });
  return { index, call, segments, mutations, mutationGlobs, reads: [...reads], namedFiles: [...named] };
}

function fileToolFacts(call: ToolCall, index: number, base: PathBase): CallFacts {
  const effects = new Map<string, MutationEffect>();
  if (call.kind === 'patch') {
    for (const text of inputStrings(call.input)) {
      const ops = parseApplyPatch(text);
      for (const t of patchTargets(ops.length > 0 ? ops : parseUnifiedDiff(text))) {
        const k = pathKey(t.path, base);
        if (k !== undefined && !effects.has(k)) effects.set(k, t.effect);
      }
    }
  }
  const defaultEffect: MutationEffect = call.kind === 'write' ? 'write' : 'edit';
  const mutations: FileMutation[] = [];
  const seen = new Set<string>();
  const add = (path: string, effect: MutationEffect): void => {
    const m = mutation(path, effect, 0, base, undefined);
    if (m && !seen.has(m.key)) {
      seen.add(m.key);
      mutations.push(m);
    }
  };
  for (const p of call.paths) {
    const k = pathKey(p, base);
    add(p, (k !== undefined ? effects.get(k) : undefined) ?? defaultEffect);
  }
  // Files found only in the patch text (an adapter that gave no paths).
  for (const [k, effect] of effects) if (!seen.has(k)) add(k.startsWith('/') ? k : `${base.root}/${k}`, effect);
  return { index, call, segments: [], mutations, mutationGlobs: [], reads: [], namedFiles: mutations.map((m) => m.key) };
}

function mutation(path: string, effect: MutationEffect, segment: number, base: PathBase, dir: string | undefined): FileMutation | undefined {
  const key = pathKey(path, base, dir);
  if (key === undefined) return undefined;
  const repoPath = toRepoPath(path, base, dir);
  return repoPath === undefined ? { key, effect, segment } : { key, repoPath, effect, segment };
}

function keys(paths: readonly string[], base: PathBase): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    const k = pathKey(p, base);
    if (k !== undefined) out.add(k);
  }
  return [...out];
}

/** String values of a tool input, two levels deep (patch text lives in `input`, `patch`, `command`…). */
function inputStrings(input: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === 'string') {
      if (value.length > 0) out.push(value);
    } else if (depth < 2 && Array.isArray(value)) {
      for (const v of value) visit(v, depth + 1);
    } else if (depth < 2 && value !== null && typeof value === 'object') {
      for (const v of Object.values(value)) visit(v, depth + 1);
    }
  };
  visit(input, 0);
  return out;
}

/** Compare positions: negative when `a` comes first. */
export function comparePositions(a: Position, b: Position): number {
  return a.call !== b.call ? a.call - b.call : a.segment - b.segment;
}
