import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** The first executable named `name` on `PATH` (as a shell would find it), or undefined. */
export function findExecutable(name: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (isAbsolute(name)) return isExecutableFile(name) ? name : undefined;
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
