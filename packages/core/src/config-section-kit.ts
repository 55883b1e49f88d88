/**
 * `@agent-checkpoint/core/config-section`: what a package needs to define a configuration section
 * (`config/config-section.ts`). Loads zod: import it only from a section's own module, which the
 * package's lazy manifest evaluates when a configuration layer sets one of the section's keys.
 */
export { classify as classifyKeys, GlobSchema } from './config/config-schema.ts';
export { configFileSchemaWith, defineConfigSection } from './config/define-config-section.ts';
export type { ConfigSection } from './config/config-section.ts';
