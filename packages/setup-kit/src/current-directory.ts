/** `process.cwd()`, or undefined when the process's directory no longer exists (a removed worktree). */
export function currentDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}
