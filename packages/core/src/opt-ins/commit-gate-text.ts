/** The gate's sentence (seed 001, "Second stop with uncommitted changes"). */
export const COMMIT_GATE_TEXT = 'You have uncommitted code changes. Commit your work before stopping.';
