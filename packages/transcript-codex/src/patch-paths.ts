const HEADER = /^\*\*\* (?:Update File|Add File|Delete File|Move to): (.+)$/;

/**
 * File paths named in an apply_patch text, in order of appearance, without duplicates, exactly as the
 * model wrote them (normally relative to the turn's cwd): `*** Update File:`, `*** Add File:`,
 * `*** Delete File:` and the `*** Move to:` target of a rename.
 */
export function patchPathsFromText(patch: string): string[] {
  const paths: string[] = [];
  for (const rawLine of patch.split('\n')) {
    const match = HEADER.exec(rawLine.replace(/\r$/, ''));
    const path = match?.[1]?.trim();
    if (path && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

const SHELL_PATCH = /^\s*(?:cd\s+[^\s;&|]+\s*&&\s*)?(?:apply_patch|applypatch)\b[^\n]*\n?([\s\S]*?\*\*\* End Patch)/;

/**
 * The patch text when a shell call is really an apply_patch invocation. Older Codex models called
 * `shell` with `["apply_patch", "<patch>"]` or a heredoc script `apply_patch <<'EOF' … EOF`, and Codex
 * intercepted it as a patch. Only a command that *starts* with apply_patch counts, so a script that
 * merely mentions a patch (`grep '*** Begin Patch' log`) stays a shell command.
 */
export function patchFromShellCommand(argv: readonly string[] | undefined, script: string | undefined): string | undefined {
  const program = argv?.[0]?.split(/[\\/]/).pop();
  const patchArg = argv?.[1];
  if ((program === 'apply_patch' || program === 'applypatch') && patchArg?.includes('*** Begin Patch')) {
    return patchArg;
  }
  if (script === undefined) return undefined;
  const match = SHELL_PATCH.exec(script);
  const body = match?.[1];
  return body?.includes('*** Begin Patch') ? body.slice(body.indexOf('*** Begin Patch')) : undefined;
}
