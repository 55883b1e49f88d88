import type { z } from 'zod';
import { privilegedKeysOf } from './config-key-trust.ts';
import { ConfigFileSchema, keyTrustOf } from './config-schema.ts';
import { ConfigSectionError, type ConfigSection } from './config-section.ts';

/**
 * A {@link ConfigSection} from its schemas, defaults and resolver; its privileged keys are derived
 * from the schemas' classification (`classifyKeys`), so each is written once, beside its schema.
 * Loads zod (the schemas are zod objects): call it in the section's own module, which the owning
 * package's `./load` manifest imports only when a layer sets one of its keys.
 *
 * @throws ConfigSectionError when a key is also core's, or a schema is not classified.
 */
export function defineConfigSection<Value>(section: Omit<ConfigSection<Value>, 'privilegedKeys'>): ConfigSection<Value> {
  for (const [key, schema] of Object.entries(section.schemas)) {
    if (Object.hasOwn(ConfigFileSchema.shape, key)) throw new ConfigSectionError(`config section "${section.id}": "${key}" is a key of core's schema`);
    if (keyTrustOf(schema) === undefined) throw new ConfigSectionError(`config section "${section.id}": the schema of "${key}" is not classified (classifyKeys)`);
  }
  return { ...section, privilegedKeys: privilegedKeysOf(section.schemas) };
}

/**
 * Core's file schema extended with the sections' keys (optional, strict like every object). Without
 * sections, core's own schema: an unknown top-level key is still rejected.
 *
 * @throws ConfigSectionError when two sections claim the same key.
 */
export function configFileSchemaWith(sections: readonly Pick<ConfigSection, 'id' | 'schemas'>[]): z.ZodObject {
  if (sections.length === 0) return ConfigFileSchema;
  const shape: Record<string, z.ZodOptional<z.ZodObject>> = {};
  const owner = new Map<string, string>();
  for (const section of sections) {
    for (const [key, schema] of Object.entries(section.schemas)) {
      const other = owner.get(key);
      if (other !== undefined && other !== section.id) throw new ConfigSectionError(`config sections "${other}" and "${section.id}" both claim "${key}"`);
      if (Object.hasOwn(ConfigFileSchema.shape, key)) throw new ConfigSectionError(`config section "${section.id}": "${key}" is a key of core's schema`);
      owner.set(key, section.id);
      shape[key] = schema.optional();
    }
  }
  const extended = ConfigFileSchema.extend(shape);
  // `extend` drops the description (the JSON Schema's root description).
  return ConfigFileSchema.description === undefined ? extended : extended.describe(ConfigFileSchema.description);
}
