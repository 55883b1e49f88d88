import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import { ConfigFileSchema, type ConfigFile } from './config-schema.ts';
import type { ConfigSection } from './config-section.ts';
import { configFileSchemaWith } from './define-config-section.ts';

/**
 * Parsing and validating a configuration file. This module loads jsonc-parser and zod, so
 * `load-config.ts` imports it dynamically, and only when a configuration file exists and is not in
 * the validated-config cache.
 */

/** Result of {@link parseConfigText}: the config, or the problems that made the file unusable. */
export type ParsedConfigFile =
  | { readonly ok: true; readonly config: ConfigFile; readonly value: unknown }
  | { readonly ok: false; readonly problems: readonly string[] };

/** Result of {@link parseConfigJson}: the parsed value (not yet validated), or the syntax problems. */
export type ParsedConfigJson = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Parse JSON with comments and trailing commas (a leading BOM is skipped). Syntax errors are reported
 * as `line:column: message`. The loader reads the top-level keys of the value to know which config
 * sections to load before {@link validateConfigValue}. Never throws.
 */
export function parseConfigJson(text: string): ParsedConfigJson {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (source.trim() === '') return { ok: false, problems: ['the file is empty; expected a JSON object such as {}'] };
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(source, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    return {
      ok: false,
      problems: errors.slice(0, 5).map((e) => `${lineColumn(source, e.offset)}: syntax error: ${describeParseError(printParseErrorCode(e.error))}`),
    };
  }
  return { ok: true, value };
}

/**
 * Validate a parsed value with {@link ConfigFileSchema} extended by `sections` (strict: a top-level key
 * neither core nor a section claims is an `unknown key` problem). Schema issues are reported as
 * `path: message`, with paths written like code (`categories[2].include`). Never throws for bad input.
 */
export function validateConfigValue(value: unknown, sections: readonly ConfigSection[] = []): ParsedConfigFile {
  const schema = configFileSchemaWith(sections);
  const result = schema.safeParse(value);
  if (!result.success) return { ok: false, problems: result.error.issues.flatMap((issue) => formatIssue(issue, schema)) };
  return { ok: true, config: result.data as ConfigFile, value };
}

/** {@link parseConfigJson}, then {@link validateConfigValue} with `sections`. Never throws for bad input. */
export function parseConfigText(text: string, sections: readonly ConfigSection[] = []): ParsedConfigFile {
  const parsed = parseConfigJson(text);
  return parsed.ok ? validateConfigValue(parsed.value, sections) : parsed;
}

/** One or more `path: message` lines for a zod issue. */
export function formatIssue(issue: z.core.$ZodIssue, root: z.core.$ZodType = ConfigFileSchema): string[] {
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeysAt(issue.path, root);
    return issue.keys.map((key) => {
      const suggestion = closest(key, known);
      return `${formatPath([...issue.path, key])}: unknown key${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`;
    });
  }
  return [`${formatPath(issue.path)}: ${issue.message}`];
}

/** The keys the schema allows in the object at `path` (empty when the path leads elsewhere). */
function knownKeysAt(path: readonly PropertyKey[], root: z.core.$ZodType): string[] {
  let schema: z.core.$ZodType | undefined = root;
  for (const segment of [...path, undefined]) {
    // Unwrap optional and array wrappers until an object is reached.
    for (;;) {
      const def: z.core.$ZodTypeDef | undefined = schema?._zod.def;
      if (def?.type === 'optional') schema = (def as z.core.$ZodOptionalDef).innerType;
      else if (def?.type === 'array' && typeof segment === 'number') {
        schema = (def as z.core.$ZodArrayDef).element;
        break;
      } else break;
    }
    if (segment === undefined || typeof segment === 'number') continue;
    const def: z.core.$ZodTypeDef | undefined = schema?._zod.def;
    schema = def?.type === 'object' ? (def as z.core.$ZodObjectDef).shape[String(segment)] : undefined;
  }
  const def: z.core.$ZodTypeDef | undefined = schema?._zod.def;
  return def?.type === 'object' ? Object.keys((def as z.core.$ZodObjectDef).shape) : [];
}

/** The known key closest to a misspelled one, when it is close enough to be a typo. */
function closest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(key.length / 3)) + 1;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance (keys are short; the quadratic table is fine). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** `['categories', 2, 'include']` → `categories[2].include`; the empty path is `(root)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const key = String(segment);
      out += /^[A-Za-z_$][\w$]*$/.test(key) ? (out === '' ? key : `.${key}`) : `[${JSON.stringify(key)}]`;
    }
  }
  return out === '' ? '(root)' : out;
}

/** 1-based `line:column` of a character offset. */
export function lineColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return `${line}:${offset - lineStart + 1}`;
}

/** `PropertyNameExpected` → `property name expected`. */
function describeParseError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
