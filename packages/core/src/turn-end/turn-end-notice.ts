import { createHash } from 'node:crypto';
import type { LoadedConfig } from '../config/load-config.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import { CLI_USER_COMMANDS, type UserCommands } from '../engine/user-commands.ts';

/**
 * What a person (not the model) should learn about a turn end, once per session, through the agent's
 * user-visible channel (Claude and Codex `systemMessage`, Gemini's too): the few diagnostics that
 * change what the checkpoint can do, never the debug lines.
 * - `config-broken`: a configuration file was ignored (invalid, unreadable, unknown preset…);
 * - `config-untrusted`: the project file's privileged keys were ignored until `agent-checkpoint-hook trust`;
 * - `config-unusable`: a configuration path is a FIFO, socket or device: the stop passed unchecked;
 * - `transcript-unreadable`: the transcript could not be read (not a file, an I/O error, a reader failure);
 * - `transcript-unknown-format`: the transcript was read but is not the agent's format.
 *
 * `text` is one short line naming what to run; it may hold untrusted text (paths, parser messages):
 * the route's encoder passes it through `forTerminal`.
 */
export interface TurnEndNotice {
  readonly kind: TurnEndNoticeKind;
  readonly text: string;
}

export type TurnEndNoticeKind = 'config-broken' | 'config-untrusted' | 'config-unusable' | 'transcript-unreadable' | 'transcript-unknown-format' | 'install-source-missing';

/** Every notice starts so: the user must see whose message it is. */
const PREFIX = 'agent-checkpoint: ';
/** Longest detail quoted from a diagnostic (a parser message, a path). */
const MAX_DETAIL = 240;

/** The stable key a session remembers a shown notice by: its kind and text, digested. */
export function noticeDigest(notice: TurnEndNotice): string {
  return `${notice.kind}:${createHash('sha256').update(notice.text, 'utf8').digest('hex').slice(0, 32)}`;
}

/**
 * The notices a loaded configuration calls for: its problems (as one), and the ignored untrusted keys.
 * `commands`: how the person runs `doctor` and `trust` on this route.
 */
export function configNotices(loaded: LoadedConfig, commands: UserCommands = CLI_USER_COMMANDS): TurnEndNotice[] {
  const notices: TurnEndNotice[] = [];
  const untrusted = loaded.untrusted;
  const problems = loaded.diagnostics.filter((d) => d !== untrusted?.diagnostic);
  if (problems.length > 0) {
    const { line, used } = firstProblem(problems);
    const more = problems.length > used ? ` (+${problems.length - used} more)` : '';
    notices.push({
      kind: 'config-broken',
      text: `${PREFIX}configuration problem: ${clip(line)}${more}; that part is ignored. Fix it; \`${commands.doctor}\` lists every problem.`,
    });
  }
  if (untrusted !== undefined) {
    const why = untrusted.state === 'changed' ? 'changed since you trusted it' : 'is not trusted';
    notices.push({
      kind: 'config-untrusted',
      text: `${PREFIX}${clip(untrusted.path)} ${why}, so its ${clip(untrusted.ignoredKeys.join(', '))} ${untrusted.ignoredKeys.length === 1 ? 'is' : 'are'} ignored. Review the file, then run \`${commands.trust}\` in this project.`,
    });
  }
  return notices;
}

/** The notice of a configuration path that is a FIFO, socket or device (the stop passed unchecked). */
export function configUnusableNotice(path: string): TurnEndNotice {
  return {
    kind: 'config-unusable',
    text: `${PREFIX}${clip(path)} is not a regular file, so no checkpoint runs here. Replace it with a JSON file or remove it.`,
  };
}

/** Transcript codes that mean "could not read it" and "read it, but it is not this agent's format". */
const UNREADABLE = new Set(['read-error', 'read-failed', 'unreadable-file', 'not-a-file', 'internal-error', 'reader-failed']);
const UNKNOWN_FORMAT = new Set(['unknown-format', 'unsupported-format', 'legacy-parse-error']);

/** The notice a transcript problem calls for (warnings only; a missing or empty file is routine). */
export function transcriptNotice(timeline: TurnTimeline | undefined, commands: UserCommands = CLI_USER_COMMANDS): TurnEndNotice | undefined {
  for (const d of timeline?.diagnostics ?? []) {
    if (d.level !== 'warn') continue;
    if (UNREADABLE.has(d.code)) return transcriptUnreadableNotice(d.message, commands);
    if (UNKNOWN_FORMAT.has(d.code)) {
      return {
        kind: 'transcript-unknown-format',
        text: `${PREFIX}the ${timeline?.agent ?? 'agent'} transcript is not in a format it can read (${clip(d.message)}); checkpoints use changed files only. \`${commands.doctor}\` checks the setup.`,
      };
    }
  }
  return undefined;
}

/** The notice of a transcript the hook could not read at all (`detail`: why). */
export function transcriptUnreadableNotice(detail: string, commands: UserCommands = CLI_USER_COMMANDS): TurnEndNotice {
  return {
    kind: 'transcript-unreadable',
    text: `${PREFIX}cannot read this session's transcript (${clip(detail)}); checkpoints use changed files only. \`${commands.doctor}\` checks the setup.`,
  };
}

/**
 * The first problem as one line, and how many diagnostics it stands for: `<path>: invalid
 * configuration, file ignored:` is a header, quoted with the first problem under it.
 */
function firstProblem(problems: readonly string[]): { readonly line: string; readonly used: number } {
  const [first, next] = problems;
  if (first === undefined) return { line: '', used: 0 };
  if (!first.endsWith(':') || next === undefined) return { line: first, used: 1 };
  const path = first.slice(0, first.indexOf(': '));
  return { line: `${first} ${next.startsWith(`${path}: `) ? next.slice(path.length + 2) : next}`, used: 2 };
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= MAX_DETAIL ? line : `${line.slice(0, MAX_DETAIL - 1)}…`;
}
