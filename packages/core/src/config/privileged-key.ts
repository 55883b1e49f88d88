/**
 * A key a project file may set only once trusted; `[]` in `path` stands for each array element. Its
 * own leaf file: the generated list (`config-privileged-keys.ts`) and the code that strips those keys
 * (`strip-privileged-keys.ts`) both name it, and the second imports the first.
 */
export interface PrivilegedKey {
  readonly path: readonly string[];
  /** Why it is privileged, for diagnostics. */
  readonly why: string;
}
