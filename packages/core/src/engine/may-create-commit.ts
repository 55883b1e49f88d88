import type { ShellSegment } from '../shell/parse-shell-command.ts';
import { gitSubcommand } from '../shell/analyze-mutation.ts';
import { assertNever, type ToolCall } from '../timeline/tool-call.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';

/**
 * Programs that neither run other programs nor write to a repository. Everything else — interpreters,
 * build tools, test runners, package scripts, `xargs`, `sed` (its `e` command runs a shell), `awk`
 * (`system()`), any script — may run `git commit` and so may create a commit.
 */
const INERT_PROGRAMS = new Set([
  'cat', 'tac', 'head', 'tail', 'less', 'more', 'nl', 'ls', 'tree', 'pwd', 'echo', 'printf', 'wc', 'grep', 'egrep',
  'fgrep', 'rg', 'ag', 'ack', 'diff', 'cmp', 'stat', 'file', 'which', 'type', 'true', 'false', 'sleep', 'date',
  'du', 'df', 'sort', 'uniq', 'cut', 'tr', 'jq', 'basename', 'dirname', 'realpath', 'readlink', 'test', '[',
  'cd', 'pushd', 'popd', 'od', 'xxd', 'hexdump', 'strings', 'column', 'fold', 'fmt', 'paste', 'comm', 'expand',
  'whoami', 'id', 'uname', 'hostname', 'env', 'printenv', 'mkdir', 'touch', 'cp', 'mv', 'rm', 'ln', 'chmod',
]);

/**
 * PowerShell cmdlets that, like the programs above, only read, print or change files and run no
 * other program (names compared without case, as PowerShell does). A cmdlet whose arguments hold a
 * script block (`{ … }`) may run anything in it, so such a segment never counts as inert.
 */
const INERT_POWERSHELL = new Set([
  'get-content', 'get-childitem', 'get-item', 'get-itemproperty', 'get-location', 'set-location', 'push-location',
  'pop-location', 'select-string', 'test-path', 'resolve-path', 'split-path', 'join-path', 'write-output',
  'write-host', 'write-error', 'get-date', 'select-object', 'sort-object', 'measure-object', 'format-table',
  'format-list', 'out-string', 'out-file', 'set-content', 'add-content', 'clear-content', 'new-item',
  'remove-item', 'copy-item', 'move-item', 'rename-item', 'get-filehash', 'compare-object', 'get-command',
]);

/** `find` actions that run a program. */
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * git subcommands that cannot add a commit to HEAD's history. Aliases cannot shadow built-in names,
 * so these are what they say; any other subcommand (and every alias) may commit.
 */
const GIT_NO_COMMIT = new Set([
  'status', 'diff', 'log', 'show', 'blame', 'annotate', 'grep', 'ls-files', 'ls-tree', 'ls-remote', 'rev-parse',
  'rev-list', 'describe', 'shortlog', 'cat-file', 'show-ref', 'for-each-ref', 'name-rev', 'merge-base',
  'whatchanged', 'fetch', 'remote', 'help', 'version', 'count-objects', 'fsck', 'check-ignore', 'check-attr',
  'diff-tree', 'diff-files', 'diff-index', 'var', 'branch', 'tag', 'add', 'rm', 'mv', 'restore', 'config',
]);

/**
 * Whether this turn could have made a commit, as far as its transcript tells. Conservative: true
 * without transcript data or when the read was truncated (the unread part may hold the call); true
 * when any call — of the agent or of a subagent, finished, failed or still running — may commit.
 */
export function turnMayCreateCommit(timeline: TurnTimeline, segmentsOf: (index: number) => readonly ShellSegment[]): boolean {
  if (!timeline.hasData || timeline.truncated) return true;
  return timeline.calls.some((call, i) => callMayCreateCommit(call, call.kind === 'shell' ? segmentsOf(i) : []));
}

/**
 * Whether one call may create a commit. A failed shell call still may (`git commit -m x && make test`
 * fails after committing). Edit, write, patch, read, search, web and plan tools never do; `other`
 * (unknown tools, MCP servers, subagent launchers) may: what runs behind it is not known here, and
 * core never guesses from the native name (its reader gives every known tool a kind). A shell call
 * may, unless every one of its commands is an inert program or a git subcommand that cannot commit,
 * with no command substitution (the parser does not split `$(…)` into commands).
 */
export function callMayCreateCommit(call: ToolCall, segments: readonly ShellSegment[]): boolean {
  switch (call.kind) {
    case 'edit':
    case 'write':
    case 'patch':
    case 'read':
    case 'search':
    case 'web':
    case 'plan':
      return false;
    case 'other':
      return true;
    case 'shell':
      if (segments.length === 0) return call.command.trim() !== '';
      return segments.some(segmentMayCommit);
    default:
      return assertNever(call);
  }
}

function segmentMayCommit(segment: ShellSegment): boolean {
  if (/\$\(|`|<\(|>\(/.test(segment.raw)) return true;
  const program = segment.program;
  // Only assignments or redirections (`FOO=1`, `> f`); a `bash -c` script's commands are segments of their own.
  if (program === '') return false;
  if (program === 'git') {
    // `git -C elsewhere …` may be this repository under another name: the subcommand alone decides.
    const sub = segment.argWords[gitSubcommand(segment.argWords).index]?.value;
    return sub === undefined ? false : !GIT_NO_COMMIT.has(sub);
  }
  if (program === 'find') return segment.args.some((a) => FIND_EXEC.has(a));
  if (INERT_POWERSHELL.has(program.toLowerCase())) return segment.raw.includes('{');
  return !INERT_PROGRAMS.has(program);
}
