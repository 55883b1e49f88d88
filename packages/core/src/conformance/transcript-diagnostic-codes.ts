/**
 * The diagnostic codes every transcript reader uses for the failures they all share, so `explain`
 * output, debug logs and tests read the same whatever the agent. Readers add their own codes for what
 * is specific to their format (`boundary-rewritten`, `flush-timeout`, `task-notification-turn`…); for the
 * situations below they must use exactly these, and the conformance suite asserts it.
 *
 * | situation | code | `hasData` |
 * |---|---|---|
 * | the path does not exist | `missing-file` | false |
 * | the path is a directory or another non-regular file | `not-a-file` | false |
 * | the path cannot be read for another reason: a parent that is no directory (`ENOTDIR`), a link loop, no permission | `unreadable-file` | false |
 * | zero bytes, or nothing but whitespace | `empty-file` | false |
 * | content of no known transcript format: binary bytes, plain text, no JSON line | `unknown-format` | false |
 * | lines recognisably written by another agent | `wrong-agent` | false |
 * | this agent's format, but a version or form the reader does not read (the TypeScript Codex CLI's single-document sessions): never a guessed timeline | `unsupported-format` | false |
 * | this agent's format, but no turn in it yet (only session metadata) | `no-turn` | false |
 * | the byte cap ended the read before the turn boundary (with `truncated: true`), or before anything usable was found (a single line larger than the cap) | `cap-reached` | either |
 * | the caller's signal aborted the read | `aborted` | either |
 * | the request's `deadlineAt` passed while parsing: what was read so far is returned | `deadline` | either |
 * | the hint (turn id or prompt) names no turn within the bytes read: the last genuine prompt's turn is returned instead | `turn-not-found` | true |
 */
export const SHARED_DIAGNOSTIC_CODES = {
  missingFile: 'missing-file',
  notAFile: 'not-a-file',
  unreadableFile: 'unreadable-file',
  emptyFile: 'empty-file',
  unknownFormat: 'unknown-format',
  wrongAgent: 'wrong-agent',
  unsupportedFormat: 'unsupported-format',
  noTurn: 'no-turn',
  capReached: 'cap-reached',
  aborted: 'aborted',
  deadline: 'deadline',
  turnNotFound: 'turn-not-found',
} as const;

/** One of the {@link SHARED_DIAGNOSTIC_CODES}. */
export type SharedDiagnosticCode = (typeof SHARED_DIAGNOSTIC_CODES)[keyof typeof SHARED_DIAGNOSTIC_CODES];

/** Shape of any diagnostic code: lower-case words joined by hyphens (`corrupt-line`). */
export const DIAGNOSTIC_CODE_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
