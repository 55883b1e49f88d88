import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/**
 * An npm project whose dependencies are installed on demand with `npm ci` into a cache outside the
 * repository, so `pnpm install` never downloads them (the agent CLIs weigh ~1 GB). `npm ci` checks
 * every tarball against the `integrity` (sha512) of the committed `package-lock.json`; the install
 * is reused while its marker matches the lockfile and the hashes of the entry files it recorded.
 */
export interface CliInstallSpec {
  /** Directory holding the committed `package.json` and `package-lock.json` (copied whole into the install). */
  readonly pinsDir: string;
  /** Directory that holds one subdirectory per lockfile hash and platform. */
  readonly cacheRoot: string;
  /** Files (relative to the install's `node_modules`) that must exist and are hashed into the marker. */
  readonly entries: readonly string[];
  /**
   * Install scripts to run after `npm ci --ignore-scripts`, as `[package, script file]`: only these
   * run (the same allow-list idea as pnpm's `onlyBuiltDependencies`), never a dependency's own.
   */
  readonly postinstall: readonly (readonly [pkg: string, script: string])[];
}

/** What {@link ensureCliInstall} did. */
export type CliInstallOutcome =
  | { readonly kind: 'reused'; readonly dir: string }
  | { readonly kind: 'installed'; readonly dir: string; readonly replacedDamaged: boolean };

interface Marker {
  readonly lockSha256: string;
  readonly entries: Readonly<Record<string, string>>;
}

const MARKER = '.agent-checkpoint-install.json';

/** `$AGENT_CHECKPOINT_E2E_CLI_CACHE`, else `$XDG_CACHE_HOME/agent-checkpoint/e2e-clis`, else `~/.cache/…`. */
export function defaultCliCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env['AGENT_CHECKPOINT_E2E_CLI_CACHE'];
  if (explicit !== undefined && explicit !== '') return path.resolve(explicit);
  const xdg = env['XDG_CACHE_HOME'];
  const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(homedir(), '.cache');
  return path.join(base, 'agent-checkpoint', 'e2e-clis');
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The install directory for this lockfile on this platform (whether or not it exists yet). */
export function cliInstallDir(spec: CliInstallSpec): string {
  const lock = sha256(path.join(spec.pinsDir, 'package-lock.json')).slice(0, 16);
  return path.join(spec.cacheRoot, `${lock}-${process.platform}-${process.arch}`);
}

function readMarker(dir: string): Marker | undefined {
  try {
    const raw = JSON.parse(readFileSync(path.join(dir, MARKER), 'utf8')) as Partial<Marker>;
    return typeof raw.lockSha256 === 'string' && typeof raw.entries === 'object' && raw.entries !== null ? (raw as Marker) : undefined;
  } catch {
    return undefined;
  }
}

/** Cheap check for test workers: the install exists and was completed for this lockfile. */
export function completedCliInstall(spec: CliInstallSpec): string | undefined {
  const dir = cliInstallDir(spec);
  const marker = readMarker(dir);
  return marker?.lockSha256 === sha256(path.join(spec.pinsDir, 'package-lock.json')) ? dir : undefined;
}

/** Full check: the marker matches the lockfile and every entry file still has its recorded hash. */
function isIntact(spec: CliInstallSpec, dir: string): boolean {
  const marker = readMarker(dir);
  if (marker?.lockSha256 !== sha256(path.join(spec.pinsDir, 'package-lock.json'))) return false;
  return spec.entries.every((entry) => {
    const file = path.join(dir, 'node_modules', entry);
    return existsSync(file) && statSync(file).isFile() && marker.entries[entry] === sha256(file);
  });
}

/**
 * Make sure the pinned packages are installed and intact in the cache; install them if not.
 * Concurrent runs are safe: each installs into its own temporary directory and renames it into
 * place; a run that loses the race discards its copy and uses the winner's.
 */
export function ensureCliInstall(spec: CliInstallSpec, log: (line: string) => void = () => {}): CliInstallOutcome {
  const dir = cliInstallDir(spec);
  if (isIntact(spec, dir)) return { kind: 'reused', dir };
  const replacedDamaged = existsSync(dir);
  mkdirSync(spec.cacheRoot, { recursive: true });
  const tmp = path.join(spec.cacheRoot, `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    // The whole pins directory: a `file:` tarball a lockfile names sits beside it (the unit test's).
    cpSync(spec.pinsDir, tmp, { recursive: true, filter: (source) => path.basename(source) !== 'node_modules' });
    log(`installing ${path.relative(process.cwd(), spec.pinsDir) || spec.pinsDir} with npm ci into ${dir}`);
    execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: tmp, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, npm_config_engine_strict: 'false' } });
    for (const [pkg, script] of spec.postinstall) {
      execFileSync(process.execPath, [script], { cwd: path.join(tmp, 'node_modules', pkg), stdio: ['ignore', 'ignore', 'inherit'] });
    }
    const entries: Record<string, string> = {};
    for (const entry of spec.entries) {
      const file = path.join(tmp, 'node_modules', entry);
      if (!existsSync(file)) throw new Error(`npm ci in ${tmp} did not produce ${entry}`);
      entries[entry] = sha256(file);
    }
    const marker: Marker = { lockSha256: sha256(path.join(tmp, 'package-lock.json')), entries };
    writeFileSync(path.join(tmp, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
    if (replacedDamaged) {
      // Move the damaged copy aside first so the rename below cannot land inside it.
      const aside = `${tmp}-damaged`;
      try {
        renameSync(dir, aside);
        rmSync(aside, { recursive: true, force: true });
      } catch {
        // Another run replaced it meanwhile; the rename below settles who wins.
      }
    }
    try {
      renameSync(tmp, dir);
    } catch (error) {
      // A concurrent run finished first: use its install if it is intact.
      if (!isIntact(spec, dir)) throw error;
    }
    return { kind: 'installed', dir, replacedDamaged };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
