import { statSync } from 'node:fs';
import { forTerminal, jsonForTerminal, type AgentId } from '@agent-checkpoint/core';
import { resolve } from 'node:path';
import { describeErrno, EXIT_FAILURE, EXIT_OK, type TerminalStyle } from '@agent-checkpoint/setup-kit';
import { explainTurn } from './explain-turn.ts';
import { renderExplain } from './render-explain.ts';

export interface ExplainCommandContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly write: (text: string) => Promise<void>;
  readonly writeError: (text: string) => void;
  readonly style: TerminalStyle;
  /** The command-line tool as a person runs it on this route (commands/run-setup-command.ts). */
  readonly tool?: string;
}

/** The options of `explain`, as commander parses them (commands/hook-cli.ts declares them). */
export interface ExplainOptions {
  readonly agent: AgentId;
  readonly transcript?: string;
  readonly session?: string;
  readonly turnId?: string;
  readonly promptId?: string;
  readonly cwd?: string;
  readonly json?: boolean;
}

/** `agent-checkpoint-hook explain`. */
export async function runExplainCommand(o: ExplainOptions, context: ExplainCommandContext): Promise<number> {
  const turnId = o.turnId ?? o.promptId;
  const transcriptPath = o.transcript === undefined ? undefined : resolve(context.cwd, o.transcript);
  // A transcript the user named must be there: explaining "no transcript" instead would exit 0 and
  // read as an answer about their turn.
  const problem = transcriptPath === undefined ? undefined : transcriptProblem(transcriptPath);
  if (problem !== undefined) {
    context.writeError(`agent-checkpoint: explain: --transcript ${forTerminal(o.transcript!, { keepLines: false })}: ${problem}\n`);
    return EXIT_FAILURE;
  }
  try {
    const report = await explainTurn({
      agent: o.agent,
      cwd: resolve(context.cwd, o.cwd ?? '.'),
      env: context.env,
      ...(transcriptPath === undefined ? {} : { transcriptPath }),
      ...(o.session === undefined ? {} : { sessionId: o.session }),
      ...(turnId === undefined ? {} : { turnId }),
    });
    await context.write(o.json === true ? `${jsonForTerminal(JSON.stringify(report, null, 2))}\n` : renderExplain(report, context.style, context.tool));
    return EXIT_OK;
  } catch (error) {
    context.writeError(`agent-checkpoint: explain failed: ${forTerminal(error instanceof Error ? error.message : String(error), { keepLines: false })}\n`);
    return EXIT_FAILURE;
  }
}

/** Why a named transcript cannot be explained, or undefined when it is a regular file. */
function transcriptProblem(path: string): string | undefined {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    if (info === undefined) return 'no such file';
    return info.isFile() ? undefined : 'not a regular file';
  } catch (error) {
    return describeErrno(error);
  }
}

