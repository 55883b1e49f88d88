/**
 * Helpers shared by the set-up commands of both delivery packages (`agent-checkpoint-hook` and
 * `agent-checkpoint-tmux`): changing a user's config file atomically and undoably, showing diffs,
 * terminal styling, argument parsing, and the doctor report format.
 */
export * from './managed-file.ts';
export * from './read-settings-file.ts';
export * from './render-diff.ts';
export * from './terminal-style.ts';
export * from './shell-quote.ts';
export * from './command-args.ts';
export * from './find-executable.ts';
export * from './json-member-edits.ts';
export * from './doctor-report.ts';
export * from './current-directory.ts';
export * from './progress-line.ts';
