import { blockOutcomeReport } from '@agent-checkpoint/core';
import { renderReport, reportFromLog } from '@agent-checkpoint/context-checkpoint';
import { EXIT_OK } from '@agent-checkpoint/setup-kit';
import { commandFailure, jsonLine, openCommandProject, terminalText, type Write } from './context-cli-support.ts';
import { renderBlockOutcomes } from './render-block-outcomes.ts';

/** Options of `report`. */
export interface ReportOptions {
  readonly cwd?: string;
  readonly json?: boolean;
}

/**
 * `report`: the project's block outcomes (what the agent did with each block: acted on, disputed,
 * ignored, switched off; from the session states) and its context checkpoint metrics (seed 004
 * "Success Metrics", from its log), both in the state directory.
 */
export async function runReportCommand(options: ReportOptions, write: Write): Promise<number> {
  const project = await openCommandProject(options.cwd);
  if (typeof project === 'string') return commandFailure(`report: ${project}`);
  const blocks = await blockOutcomeReport({ stateDir: project.stateDir, projectRoot: project.projectRoot });
  const read = await reportFromLog({ stateDir: project.stateDir, projectRoot: project.projectRoot });
  if (read.problem !== undefined) return commandFailure(`report: the metrics log: ${read.problem}`);
  if (options.json === true) await write(jsonLine({ project: project.projectRoot, blockOutcomes: blocks, ...read }));
  else await write(terminalText(`${renderBlockOutcomes(blocks)}${renderReport(read.report, { skippedLines: read.skippedLines, truncated: read.truncated })}\n`));
  return EXIT_OK;
}
