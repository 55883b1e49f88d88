/**
 * The issue tracker of the context checkpoint system (seed 004, LIN-001..004, HND-003, SHD-003).
 * The Linear client itself (`linear-tracker.ts`) is not re-exported: `openIssueTracker` imports it
 * lazily, so importing this module costs no network code when the tracker is off.
 */
export * from './issue-tracker.ts';
export * from './tracker-settings.ts';
export * from './issue-id-from-branch.ts';
export * from './checkpoint-comment.ts';
export * from './linear-front-matter.ts';
export * from './open-issue-tracker.ts';
export * from './sync-checkpoint.ts';
export * from './tracker-outbox.ts';
