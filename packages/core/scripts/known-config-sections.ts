// The config sections other workspace packages register, for build-time artifacts only (the
// generator and the tests that fail when a committed artifact is stale): `schema.json`,
// docs/configuration.md, the schema fingerprint and the privileged-key list cover them too. Core's
// runtime never imports a package above it; routes pass the sections to the loader.
// Adding a section in a package: export it from the package's sections list; nothing to change here.
import { CONTEXT_CHECKPOINT_SECTIONS } from '../../context-checkpoint/src/config/context-sections.ts';
import type { ConfigSection } from '../src/config/config-section.ts';

export const KNOWN_CONFIG_SECTIONS: readonly ConfigSection[] = Object.values(CONTEXT_CHECKPOINT_SECTIONS);
