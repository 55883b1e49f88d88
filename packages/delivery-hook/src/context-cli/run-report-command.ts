import { renderReport, reportFromLog } from '@agent-checkpoint/context-checkpoint';
import { EXIT_OK } from '@agent-checkpoint/setup-kit';
import { commandFailure, jsonLine, openCommandProject, type Write } from './context-cli-support.ts';

/** Options of `report`. */
export interface ReportOptions {
  readonly cwd?: string;
  readonly json?: boolean;
}

/** `report`: the project's context checkpoint metrics (seed 004 "Success Metrics") from its log in the state directory. */
export async function runReportCommand(options: ReportOptions, write: Write): Promise<number> {
  const project = await openCommandProject(options.cwd);
  if (typeof project === 'string') return commandFailure(`report: ${project}`);
  const read = await reportFromLog({ stateDir: project.stateDir, projectRoot: project.projectRoot });
  if (read.problem !== undefined) return commandFailure(`report: the metrics log: ${read.problem}`);
  if (options.json === true) await write(jsonLine({ project: project.projectRoot, ...read }));
  else await write(`${renderReport(read.report, { skippedLines: read.skippedLines, truncated: read.truncated })}\n`);
  return EXIT_OK;
}
