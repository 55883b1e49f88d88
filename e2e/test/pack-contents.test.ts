import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materializeExample } from '../../fixtures/example/materialize-example.mjs';
import { moduleReferences } from '../src/harness/module-references.ts';
import { cleanEnv, packPackage, publishedPackageDirs, REPO_ROOT, type PackedPackage } from '../src/harness/packed-packages.ts';

// What `npm publish` would upload, checked file by file: every published package (packages/* that
// are not private) is packed once with `pnpm pack` (prepack builds it; publishConfig and
// `workspace:*` applied) and the results are shared by every test below. No registry is contacted:
// the bins are installed offline from an empty cache (which fails if they need anything), and the
// library consumer gets the libraries' third-party dependencies from the workspace's own install.

const require = createRequire(import.meta.url);
let work: string;
let packs: PackedPackage[];
const bins = (): PackedPackage[] => packs.filter((pack) => pack.manifest.bin !== undefined);
const libraries = (): PackedPackage[] => packs.filter((pack) => pack.manifest.bin === undefined);

beforeAll(() => {
  work = realpathSync(mkdtempSync(path.join(tmpdir(), 'ac-pack-')));
  packs = publishedPackageDirs().map((dir) => packPackage(dir, path.join(work, 'packs')));
}, 900_000);
afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

const isBuiltin = (specifier: string): boolean => specifier.startsWith('node:') || builtinModules.includes(specifier);
/** `zod/mini` → `zod`, `@scope/name/sub` → `@scope/name`. */
const packageName = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
/**
 * Whether a specifier naming one of our packages is a subpath its published exports have (the
 * workspace exports more, e.g. core's `./conformance`, which a user's install does not); a
 * third-party specifier counts as exported.
 */
const publishedSubpath = (specifier: string): boolean => {
  const target = packs.find((pack) => pack.name === packageName(specifier));
  if (target === undefined) return true;
  const subpath = `.${specifier.slice(target.name.length)}`;
  return Object.hasOwn(target.manifest.exports ?? {}, subpath);
};
const isBuiltFile = (file: string): boolean => /\.(c|m)?js$/.test(file) || file.endsWith('.d.ts');

/** Where a relative reference of `file` lands, as a path in the tarball. */
const inTarball = (file: string, specifier: string): string => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));

/**
 * Every module reference of the pack's built files that is neither a Node built-in nor a file in the
 * tarball nor (for a library) one of its declared dependencies — ours only by a subpath they publish —
 * as `file: specifier`. A bin may import no package at all, whatever its manifest declares. Computed
 * specifiers count as unresolvable.
 */
function unresolvedReferences(pack: PackedPackage): string[] {
  const declared = new Set(pack.manifest.bin !== undefined ? [] : [...Object.keys(pack.manifest.dependencies ?? {}), ...Object.keys(pack.manifest.peerDependencies ?? {})]);
  const files = new Set(pack.files);
  const problems: string[] = [];
  for (const file of pack.files.filter(isBuiltFile)) {
    const text = readFileSync(path.join(pack.unpacked, 'package', file), 'utf8');
    for (const { kind, specifier } of moduleReferences(file, text)) {
      if (specifier === null) problems.push(`${file}: computed ${kind}`);
      else if (specifier.startsWith('./') || specifier.startsWith('../')) {
        const target = inTarball(file, specifier);
        // A declaration file's `./x.js` is typed by `./x.d.ts`.
        const candidates = file.endsWith('.d.ts') ? [target.replace(/\.js$/, '.d.ts'), target] : [target];
        if (!candidates.some((candidate) => files.has(candidate))) problems.push(`${file}: ${specifier} (not in the tarball)`);
      } else if (!isBuiltin(specifier) && !declared.has(packageName(specifier))) problems.push(`${file}: ${specifier}`);
      else if (!isBuiltin(specifier) && !publishedSubpath(specifier)) problems.push(`${file}: ${specifier} (not exported by the published package)`);
    }
  }
  return problems;
}

/** The `exports` targets of a published manifest, by subpath: a string or a conditions object. */
function exportTargets(pack: PackedPackage): Array<[subpath: string, target: string | Record<string, string>]> {
  return Object.entries(pack.manifest.exports ?? {}) as Array<[string, string | Record<string, string>]>;
}

describe('the packed packages', () => {
  it('are the ten published ones: two bins, eight libraries', () => {
    expect(bins().map((pack) => pack.name)).toEqual(['@agent-checkpoint/delivery-hook', '@agent-checkpoint/delivery-tmux']);
    expect(libraries().map((pack) => pack.name)).toEqual([
      '@agent-checkpoint/context-checkpoint',
      '@agent-checkpoint/core',
      '@agent-checkpoint/transcript-claude',
      '@agent-checkpoint/transcript-codex',
      '@agent-checkpoint/transcript-copilot',
      '@agent-checkpoint/transcript-gemini',
      '@agent-checkpoint/transcript-pi',
      '@agent-checkpoint/transcript-qwen',
    ]);
  });

  it('ship package.json, README, LICENSE and dist/, and nothing of their sources, tests or fixtures', () => {
    for (const pack of packs) {
      expect(pack.files, pack.name).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
      expect(pack.files.some((file) => file.startsWith('dist/')), pack.name).toBe(true);
      const unwanted = pack.files.filter(
        (file) =>
          /^(src|test|tests|scripts|bench|fixtures)\//.test(file) ||
          /(^|\/)(__fixtures__|__tests__|test-support|testing|node_modules)\//.test(file) ||
          /\.(test|spec|bench)\.[cm]?[jt]s$/.test(file) ||
          (/\.[cm]?ts$/.test(file) && !file.endsWith('.d.ts')) ||
          /(^|\/)(tsconfig[^/]*|vitest\.config\.[^/]*|\.npmrc)$/.test(file),
      );
      expect(unwanted, pack.name).toEqual([]);
    }
  });

  it('ship source maps only beside the library JavaScript they map; the self-contained bins none', () => {
    for (const pack of libraries()) {
      const maps = pack.files.filter((file) => file.endsWith('.map'));
      expect(maps.filter((map) => !pack.files.includes(map.slice(0, -'.map'.length))), pack.name).toEqual([]);
    }
    for (const pack of bins()) expect(pack.files.filter((file) => file.endsWith('.map')), pack.name).toEqual([]);
  });

  it('have no workspace: or catalog: range left in their manifests', () => {
    for (const pack of packs) expect(readFileSync(path.join(pack.unpacked, 'package', 'package.json'), 'utf8'), pack.name).not.toMatch(/"(workspace|catalog):/);
  });

  it('export only files that are in the tarball; every library JavaScript entry has its types, named first', () => {
    for (const pack of packs) {
      for (const [subpath, target] of exportTargets(pack)) {
        const targets = typeof target === 'string' ? [target] : Object.values(target);
        for (const file of targets) expect(pack.files, `${pack.name} ${subpath}`).toContain(path.posix.normalize(file));
        if (pack.manifest.bin !== undefined || !(typeof target === 'string' ? target : (target['default'] ?? '')).endsWith('.js')) continue;
        expect(typeof target === 'string' ? [] : Object.keys(target), `${pack.name} ${subpath}`).toEqual(['types', 'default']);
      }
    }
  });
});

describe('the bin packages (delivery-hook, delivery-tmux)', () => {
  it('declare no runtime dependencies of any kind', () => {
    for (const pack of bins()) {
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'] as const) expect(pack.manifest[field] ?? {}, `${pack.name} ${field}`).toEqual({});
      expect(pack.manifest.bundleDependencies ?? pack.manifest.bundledDependencies ?? [], pack.name).toEqual([]);
    }
  });

  it('built files import nothing but Node built-ins and files of the tarball (the bundles inline every library)', () => {
    for (const pack of bins()) expect(unresolvedReferences(pack), pack.name).toEqual([]);
  });

  it('name bin targets that are in the tarball, executable, with a node shebang', () => {
    for (const pack of bins()) {
      for (const [name, target] of Object.entries(pack.manifest.bin ?? {})) {
        const file = path.posix.normalize(target);
        expect(pack.files, name).toContain(file);
        const full = path.join(pack.unpacked, 'package', file);
        expect(statSync(full).mode & 0o111, name).not.toBe(0);
        expect(readFileSync(full, 'utf8').split('\n', 1)[0], name).toBe('#!/usr/bin/env node');
      }
    }
  });

  it('ship the config JSON Schema beside the hook bin (a data file no bundle can inline)', () => {
    const hook = bins().find((pack) => pack.dir === 'delivery-hook')!;
    expect(readFileSync(path.join(hook.unpacked, 'package', 'dist', 'schema.json'), 'utf8')).toBe(readFileSync(path.join(REPO_ROOT, 'packages', 'core', 'schema.json'), 'utf8'));
  });

  it('install offline from an empty npm cache as exactly two packages, and checkpoint a real turn', () => {
    const prefix = path.join(work, 'bins-prefix');
    const install = spawnSync('npm', ['install', '--global', '--prefix', prefix, '--offline', '--cache', path.join(work, 'empty-npm-cache'), ...bins().map((pack) => pack.tarball)], {
      env: cleanEnv(),
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(install.status, `${install.stdout}\n${install.stderr}`).toBe(0);
    const scope = path.join(prefix, 'lib', 'node_modules', '@agent-checkpoint');
    expect(readdirSync(path.join(prefix, 'lib', 'node_modules'))).toEqual(['@agent-checkpoint']);
    expect(readdirSync(scope).sort()).toEqual(['delivery-hook', 'delivery-tmux']);
    for (const name of readdirSync(scope)) expect(existsSync(path.join(scope, name, 'node_modules')), name).toBe(false);

    const version = bins()[0]!.manifest.version;
    expect(execFileSync(path.join(prefix, 'bin', 'agent-checkpoint-hook'), ['version'], { encoding: 'utf8' }).trim()).toBe(version);
    expect(execFileSync(path.join(prefix, 'bin', 'agent-checkpoint-tmux'), ['--version'], { encoding: 'utf8' }).trim()).toBe(version);

    const example = materializeExample(path.join(work, 'example'));
    const run = spawnSync(process.execPath, [path.join(scope, 'delivery-hook', 'dist', 'agent-checkpoint-hook.cjs'), 'claude'], {
      cwd: example.repo,
      input: readFileSync(example.payload),
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: example.home, AGENT_CHECKPOINT_STATE_DIR: path.join(work, 'state') },
      timeout: 30_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('Restart the pricing daemon') });
  });

  it('library entries load with no node_modules at all', () => {
    for (const pack of bins()) {
      for (const [subpath, target] of exportTargets(pack)) {
        const file = path.join(pack.unpacked, 'package', typeof target === 'string' ? target : target['default']!);
        const loaded = spawnSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(`file://${file}`)}); console.log(Object.keys(m).length);`], { encoding: 'utf8', timeout: 30_000 });
        expect(loaded.status, `${pack.name} ${subpath}: ${loaded.stderr}`).toBe(0);
        expect(Number(loaded.stdout.trim()), `${pack.name} ${subpath}`).toBeGreaterThan(0);
      }
    }
  });
});

describe('the library packages', () => {
  it('import only Node built-ins, files of the tarball and their declared dependencies (JavaScript and declarations)', () => {
    for (const pack of libraries()) expect(unresolvedReferences(pack), pack.name).toEqual([]);
    // The subpath rule tells the workspace's exports from the published ones.
    expect(publishedSubpath('@agent-checkpoint/core/hot-path')).toBe(true);
    expect(publishedSubpath('@agent-checkpoint/core/conformance')).toBe(false);
  });

  describe('installed as published into a consumer project', () => {
    let consumer: string;
    /** Every JavaScript entry of every library, as the specifier a consumer imports. */
    let entries: string[];

    beforeAll(() => {
      consumer = path.join(work, 'consumer');
      const modules = path.join(consumer, 'node_modules');
      mkdirSync(path.join(modules, '@agent-checkpoint'), { recursive: true });
      const thirdParty = new Map<string, string>();
      entries = [];
      for (const pack of libraries()) {
        // A copy, not a link: Node and tsc resolve a package's dependencies from its real path.
        cpSync(path.join(pack.unpacked, 'package'), path.join(modules, pack.name), { recursive: true });
        for (const dependency of Object.keys(pack.manifest.dependencies ?? {})) {
          if (!dependency.startsWith('@agent-checkpoint/')) thirdParty.set(dependency, realpathSync(path.join(REPO_ROOT, 'packages', pack.dir, 'node_modules', dependency)));
        }
        for (const [subpath, target] of exportTargets(pack)) {
          if ((typeof target === 'string' ? target : (target['default'] ?? '')).endsWith('.js')) entries.push(subpath === '.' ? pack.name : `${pack.name}/${subpath.slice(2)}`);
        }
      }
      // Only what the libraries declare, from the workspace's install (no registry); @types/node for
      // the Node types their declarations use, as any TypeScript project on Node has.
      thirdParty.set('@types/node', realpathSync(path.join(path.dirname(require.resolve('@types/node/package.json')))));
      for (const [name, target] of thirdParty) {
        mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
        symlinkSync(target, path.join(modules, name), 'dir');
      }
      writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    });

    it('load at run time with only their declared dependencies installed', () => {
      const script = entries.map((entry, index) => `const m${index} = await import(${JSON.stringify(entry)}); console.log(${JSON.stringify(entry)}, Object.keys(m${index}).length);`).join('\n');
      writeFileSync(path.join(consumer, 'load.mjs'), script);
      const loaded = spawnSync(process.execPath, ['load.mjs'], { cwd: consumer, encoding: 'utf8', timeout: 60_000 });
      expect(loaded.status, loaded.stderr).toBe(0);
      const counts = Object.fromEntries(loaded.stdout.trim().split('\n').map((line) => line.split(' ')));
      for (const entry of entries) expect(Number(counts[entry]), entry).toBeGreaterThan(0);
    });

    it('type-check from their declarations with moduleResolution nodenext (skipLibCheck off)', () => {
      const namespaces = entries.map((entry, index) => `import * as entry${index} from ${JSON.stringify(entry)};\nexport const names${index}: string[] = Object.keys(entry${index});`);
      const consumerCode = [
        ...namespaces,
        "import { AGENT_IDS, isAgentId, type AgentId, type TranscriptReader } from '@agent-checkpoint/core';",
        "import { isAgentId as isAgentIdHot } from '@agent-checkpoint/core/hot-path';",
        "import { createClaudeTranscriptReader } from '@agent-checkpoint/transcript-claude';",
        "import { createCodexTranscriptReader } from '@agent-checkpoint/transcript-codex';",
        "import { createCopilotTranscriptReader } from '@agent-checkpoint/transcript-copilot';",
        "import { createGeminiTranscriptReader } from '@agent-checkpoint/transcript-gemini';",
        "import { createQwenTranscriptReader } from '@agent-checkpoint/transcript-qwen';",
        'export const agents: readonly AgentId[] = AGENT_IDS;',
        "export const known: boolean = isAgentId('claude') && isAgentIdHot('codex');",
        // The transcript packages' readers are core's TranscriptReader: one core, resolved from each.
        'export const readers: TranscriptReader[] = [createClaudeTranscriptReader(), createCodexTranscriptReader(), createCopilotTranscriptReader(), createGeminiTranscriptReader(), createQwenTranscriptReader()];',
        // Real types, not `any`: each of these must be an error, or the directive itself is one.
        '// @ts-expect-error an AgentId is one of the supported agents',
        "export const unknownAgent: AgentId = 'vim';",
        '// @ts-expect-error a TranscriptReader has its methods',
        'export const notAReader: TranscriptReader = {};',
      ].join('\n');
      writeFileSync(path.join(consumer, 'consumer.ts'), `${consumerCode}\n`);
      writeFileSync(
        path.join(consumer, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] },
          files: ['consumer.ts'],
        }),
      );
      const tsc = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
      const checked = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer, encoding: 'utf8', timeout: 180_000 });
      expect(checked.stdout + checked.stderr).toBe('');
      expect(checked.status).toBe(0);
    });
  });
});
