import { forTerminal, isAgentId, jsonForTerminal } from '@agent-checkpoint/core';
import { resolve } from 'node:path';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, parseCommandArgs, type TerminalStyle } from '@agent-checkpoint/setup-kit';
import { explainTurn } from './explain-turn.ts';
import { renderExplain } from './render-explain.ts';

export interface ExplainCommandContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly write: (text: string) => Promise<void>;
  readonly writeError: (text: string) => void;
  readonly style: TerminalStyle;
}

export const EXPLAIN_USAGE = `Usage:
  agent-checkpoint-hook explain --agent <claude|gemini|codex> [--transcript FILE] [--session ID]
                                [--turn-id ID | --prompt-id ID] [--cwd DIR] [--json]

Runs the whole checkpoint for one turn without delivering it — configuration, git and the
transcript are read exactly as the hook reads them; nothing is claimed or written — and shows:
the turn's tool calls, the changed files attributed to the turn and why, each category with the
evidence found (and in which call) or missing, each observation with the calls behind it, the
configuration sources, diagnostics, and the message the hook would send (or why it stays silent).

Options:
  --agent       whose transcript format to read
  --transcript  the transcript file (default: the session's, else the newest for --cwd)
  --session     the agent's session id (Claude session_id, Gemini session_id, Codex thread id)
  --turn-id     explain this turn (Codex turn_id; --prompt-id: Claude prompt_id) instead of the last
  --cwd DIR     the session's working directory (default: the current directory)
  --json        machine-readable result: the CheckpointOutcome plus the numbered timeline
  --help        this text

Exit status: 0 explained (whatever the decision), 1 failure, 2 usage error.
`;

interface Options {
  agent?: string;
  transcript?: string;
  session?: string;
  'turn-id'?: string;
  'prompt-id'?: string;
  cwd?: string;
  json?: boolean;
  help?: boolean;
}

/** `agent-checkpoint-hook explain`. */
export async function runExplainCommand(args: readonly string[], context: ExplainCommandContext): Promise<number> {
  const parsed = parseCommandArgs<Options>(args, {
    agent: { type: 'string', short: 'a' },
    transcript: { type: 'string' },
    session: { type: 'string' },
    'turn-id': { type: 'string' },
    'prompt-id': { type: 'string' },
    cwd: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (!parsed.ok) return usage(context, parsed.error);
  const o = parsed.values;
  if (o.help === true) {
    await context.write(EXPLAIN_USAGE);
    return EXIT_OK;
  }
  if (o.agent === undefined) return usage(context, '--agent is required (claude, gemini or codex)');
  if (!isAgentId(o.agent)) return usage(context, `unknown agent ${JSON.stringify(o.agent)}`);
  if (o['turn-id'] !== undefined && o['prompt-id'] !== undefined) return usage(context, 'give --turn-id or --prompt-id, not both');
  const turnId = o['turn-id'] ?? o['prompt-id'];
  try {
    const report = await explainTurn({
      agent: o.agent,
      cwd: resolve(context.cwd, o.cwd ?? '.'),
      env: context.env,
      ...(o.transcript === undefined ? {} : { transcriptPath: resolve(context.cwd, o.transcript) }),
      ...(o.session === undefined ? {} : { sessionId: o.session }),
      ...(turnId === undefined ? {} : { turnId }),
    });
    await context.write(o.json === true ? `${jsonForTerminal(JSON.stringify(report, null, 2))}\n` : renderExplain(report, context.style));
    return EXIT_OK;
  } catch (error) {
    context.writeError(`agent-checkpoint: explain failed: ${forTerminal(error instanceof Error ? error.message : String(error), { keepLines: false })}\n`);
    return EXIT_FAILURE;
  }
}

async function usage(context: ExplainCommandContext, message: string): Promise<number> {
  context.writeError(`agent-checkpoint: ${message}\n\n${EXPLAIN_USAGE}`);
  return EXIT_USAGE;
}

