/**
 * Helpers shared by the set-up commands of both delivery packages (`agent-checkpoint-hook` and
 * `agent-checkpoint-tmux`): changing a user's config file atomically and undoably, showing diffs,
 * terminal styling, argument parsing, and the doctor report format.
 */
export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './exit-codes.ts';
export { currentDirectory } from './current-directory.ts';
export { cliVersion, doctorExitCode, type DoctorFinding, doctorReport, type DoctorReport, nodeFinding, renderDoctorReport } from './doctor-report.ts';
export { findExecutable, isExecutableFile } from './find-executable.ts';
export { appendMember, applyTextEdits, detectJsonLayout, removeMember, replaceValue, type TextEdit } from './json-member-edits.ts';
export { commitInstall, commitUninstall, type FileChange, isNoop, planUninstall, readInstallRecord, readOptionalFile, writeSettings } from './managed-file.ts';
export { createProgressLine } from './progress-line.ts';
export { describeErrno, describeFileFailure, readSettingsFile, SettingsFileError } from './read-settings-file.ts';
export { renderDiff } from './render-diff.ts';
export { shellCommand } from './shell-quote.ts';
export { stdoutStyle, terminalStyle, type TerminalStyle } from './terminal-style.ts';
