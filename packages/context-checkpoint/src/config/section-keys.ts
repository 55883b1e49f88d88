/**
 * The configuration keys this package's sections claim, known without evaluating them (no imports):
 * the `./load` manifest hands them to core's loader, which loads the sections
 * (`context-sections.ts`, zod) only when a file sets one. Adding a section: add its id and keys here
 * and its definition to `context-sections.ts` (docs/configuration.md, "Config sections").
 */
export const SECTION_KEYS = {
  /** Context levels, handoffs and direct execution: resolved together (they share a diagnostic pass). */
  context: ['context', 'handoff', 'directExecution'],
  runTests: ['runTests'],
  commitGate: ['commitGate'],
  /** The issue tracker (seed 004, LIN-001..004): off by default, privileged to turn on. */
  tracker: ['tracker'],
  /** claude-mem (seed 004, MEM-001..006): off by default, privileged to turn on. */
  memory: ['memory'],
} as const satisfies Readonly<Record<string, readonly string[]>>;

/** A section id of this package (`ResolvedConfig.sections` slot). */
export type SectionId = keyof typeof SECTION_KEYS;
