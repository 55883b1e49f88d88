import { asArray, asRecord, asString } from './json-access.ts';

/**
 * Builds a minimal value that satisfies a JSON schema (or Gemini's upper-case `Schema` dialect).
 * Gemini CLI asks side questions with a response schema (the LLM loop check
 * `{unproductive_state_analysis, unproductive_state_confidence}`, the model router
 * `{complexity_reasoning, complexity_score}`); zeros and empty strings mean "no loop" and
 * "simple task", which is what a scripted run wants.
 */
export function fillJsonSchema(schema: unknown, depth = 0): unknown {
  const record = asRecord(schema);
  if (record === undefined || depth > 8) return null;
  const enumValues = asArray(record['enum']);
  if (enumValues.length > 0) return enumValues[0];
  const rawType = record['type'];
  const type = (asString(rawType) ?? asString(asArray(rawType)[0]) ?? (record['properties'] ? 'object' : '')).toLowerCase();
  switch (type) {
    case 'object': {
      const properties = asRecord(record['properties']) ?? {};
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, fillJsonSchema(value, depth + 1)]));
    }
    case 'array':
      return [];
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
