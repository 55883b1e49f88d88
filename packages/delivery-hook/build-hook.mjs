#!/usr/bin/env node
// Builds the `agent-checkpoint-hook` bin into dist/, so agents run `node /abs/path/agent-checkpoint-hook.cjs
// <agent>` with no module resolution, no npx and no node_modules at hook time:
// - agent-checkpoint-hook-main.cjs: the hook entry (src/cli.ts) and everything it imports, ONE file;
// - agent-checkpoint-hook.cjs: a small launcher (src/launcher/start-hook.ts) that runs the main file
//   through a V8 code cache (see src/launcher/launch-bundle.ts for why and how);
// - agent-checkpoint-hook.mjs: a shim for hook entries written by older versions, which ran that name;
// - agent-checkpoint-hook-dep-<name>.cjs: the libraries no turn end uses (COLD_DEPENDENCIES), required
//   by the main bundle only where they are used.
// Both are CommonJS: a code cache needs a classic script, and a .cjs entry also skips the ES module
// loader's start-up.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
/** The bin agents run. */
export const HOOK_BUNDLE = join(here, 'dist', 'agent-checkpoint-hook.cjs');
export const HOOK_MAIN_NAME = 'agent-checkpoint-hook-main.cjs';
export const HOOK_LEGACY_NAME = 'agent-checkpoint-hook.mjs';
/** The monitor's bundle (`post-tool`, after every tool call) and its acting part, loaded only to act. */
export const HOOK_MONITOR_NAME = 'agent-checkpoint-hook-monitor.cjs';
export const HOOK_MONITOR_PARTS = { decide: 'agent-checkpoint-hook-monitor-decide.cjs', record: 'agent-checkpoint-hook-monitor-record.cjs', act: 'agent-checkpoint-hook-monitor-act.cjs' };

/**
 * zod's locale index (about 60 locales, re-exported as `z.locales`) is reachable from `zod/mini` but
 * never used: we word issues ourselves, and full zod (config validation) imports its English locale
 * directly, not through the index. Bundled, it is a quarter of the file and is parsed and evaluated at
 * every hook start; an empty module in its place measured −5 to −14% CPU on the escape hatch and up
 * to −8% on a full run (bench/, `docs/benchmarks.md`, variant `zod-locales-kept`).
 */
export const stubZodLocales = {
  name: 'stub-zod-locales',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'agent-checkpoint-empty' } : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'agent-checkpoint-empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/**
 * The monitor's bundles are siblings in dist/, required by literal relative names (so the packed
 * tarball can be checked for what it loads): kept as they are written, never resolved or inlined.
 */
export const monitorSiblingsExternal = {
  name: 'monitor-siblings-external',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\/agent-checkpoint-hook-monitor(-decide|-record|-act)?\.cjs$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * For tests and bench/ only, never shipped: marks every bundled module so that a run lists exactly the
 * modules it initialised (esbuild initialises bundled modules lazily, so this is the real load set,
 * not the bundle's contents). Each module's first statement records its path relative to the repo;
 * at exit the list, and the files loaded with `require`, is written to `$AGENT_CHECKPOINT_MODULES_OUT`
 * (src/launcher/hot-path-modules.test.ts).
 */
export function markEvaluatedModules(root = join(here, '..', '..')) {
  // Files loaded through `require` (the cold dependencies' siblings) are listed too, as `require:<name>`.
  const record =
    'globalThis.__acModules ??= []; process.once("exit", () => { const out = process.env.AGENT_CHECKPOINT_MODULES_OUT; if (out) require("node:fs").writeFileSync(out, JSON.stringify([...globalThis.__acModules, ...Object.keys(require.cache).map((file) => "require:" + require("node:path").basename(file))])); });';
  return {
    name: 'mark-evaluated-modules',
    setup(pluginBuild) {
      const options = pluginBuild.initialOptions;
      options.banner = { ...options.banner, js: `${options.banner?.js ?? ''}\n${record}` };
      pluginBuild.onLoad({ filter: /\.(ts|js|mjs|cjs)$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const rel = args.path.startsWith(root) ? args.path.slice(root.length + 1) : args.path;
        const mark = `globalThis.__acModules?.push(${JSON.stringify(rel)});\n`;
        // After a shebang and a "use strict" directive: a statement before the directive would turn a
        // strict CommonJS module sloppy.
        const prologue = /^(#![^\n]*\n)?(\s*(['"])use strict\3;?[^\n]*\n)?/.exec(source)?.[0] ?? '';
        return { contents: prologue + mark + source.slice(prologue.length), loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
}

/**
 * Dependencies no turn end initialises (issue 22), each built into its own sibling file instead of the
 * main bundle: the JSONC parser (a configuration file that changed, install, doctor), smol-toml (Codex
 * config), fast-glob (the readers' last-resort search), re2js (project patterns that need it),
 * commander (the management commands' parser) and diff (setup previews). Bundled, their source was
 * read on every hook start and, on the first run after install, compiled with it; required from a
 * sibling they cost only the runs that use them. `hot-path-modules.test.ts` keeps them off the path.
 */
export const COLD_DEPENDENCIES = ['jsonc-parser', 'smol-toml', 'fast-glob', 're2js', 'commander', 'diff'];

/** The sibling file of a {@link COLD_DEPENDENCIES} entry. */
export function coldDependencyFile(name) {
  return `agent-checkpoint-hook-dep-${name}.cjs`;
}

/**
 * Resolves each cold dependency as the importing package would, records where it is, and leaves a
 * `require('./agent-checkpoint-hook-dep-<name>.cjs')` in the bundle. `resolved` maps name → path;
 * one package resolving to two copies is a build error (the sibling holds one).
 */
export function coldDependenciesExternal(resolved) {
  const filter = new RegExp(`^(${COLD_DEPENDENCIES.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);
  return {
    name: 'cold-dependencies-external',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter }, async (args) => {
        if (args.pluginData === 'cold-dependency-probe') return undefined;
        const found = await pluginBuild.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'cold-dependency-probe' });
        if (found.errors.length > 0) return { errors: found.errors };
        const before = resolved.get(args.path);
        if (before !== undefined && before !== found.path) return { errors: [{ text: `${args.path} resolves to two copies: ${before} and ${found.path}` }] };
        resolved.set(args.path, found.path);
        // A CommonJS bundle keeps an external `import()` as is, and the launcher's vm.Script has no
        // dynamic import callback on every Node 20: such imports get a bundled stub that `require`s
        // the sibling instead (esbuild runs it lazily, when the `import()` does).
        if (args.kind === 'dynamic-import') return { path: args.path, namespace: 'cold-dependency' };
        return { path: `./${coldDependencyFile(args.path)}`, external: true };
      });
      pluginBuild.onLoad({ filter: /.*/, namespace: 'cold-dependency' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`./${coldDependencyFile(args.path)}`)});`,
        loader: 'js',
      }));
      pluginBuild.onResolve({ filter: /^\.\/agent-checkpoint-hook-dep-[a-z0-9.-]+\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    },
  };
}

/** esbuild options of one cold dependency's sibling bundle (`entry`: the path the main build resolved). */
export function coldDependencyOptions(dir, name, entry) {
  return {
    entryPoints: [entry],
    outfile: join(dir, coldDependencyFile(name)),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    minify: true,
    keepNames: true,
    legalComments: 'none',
    logLevel: 'warning',
  };
}

/** Built bundles `require` the monitor's later parts beside them (src/post-tool/load-monitor-parts.ts). */
const MONITOR_SPLIT = { __AGENT_CHECKPOINT_MONITOR_SPLIT__: 'true' };

/** esbuild options of the main bundle (bench/ builds variants from these). */
export function mainBundleOptions(outfile) {
  return {
    entryPoints: [join(here, 'src', 'cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // ESM entries first: jsonc-parser's `main` is a UMD wrapper whose dynamic requires break when
    // bundled (the config parser would then fail to load and every config file would be ignored).
    mainFields: ['module', 'main'],
    // Smaller text parses faster on a cache miss; names are kept for readable stack traces.
    minify: true,
    keepNames: true,
    legalComments: 'none',
    // The launcher passes the bundle's own URL in this wrapper parameter (launch-bundle.ts).
    define: { __AGENT_CHECKPOINT_VERSION__: JSON.stringify(pkg.version), 'import.meta.url': '__agentCheckpointImportMetaUrl', ...MONITOR_SPLIT },
    plugins: [stubZodLocales, monitorSiblingsExternal],
    logLevel: 'warning',
  };
}

/**
 * Build the bin into `dirname(outfile)`: the main bundle, the launcher at `outfile`, the legacy shim.
 * Returns the launcher's path. `mainOptions` (default {@link mainBundleOptions}) lets bench/ build
 * variants of the main bundle behind the same launcher.
 */
export async function buildHook(outfile = HOOK_BUNDLE, mainOptions = mainBundleOptions) {
  const dir = dirname(outfile);
  mkdirSync(dir, { recursive: true });
  const mainFile = join(dir, HOOK_MAIN_NAME);
  const options = mainOptions(mainFile);
  const coldDependencies = new Map();
  await build({ ...options, plugins: [coldDependenciesExternal(coldDependencies), ...(options.plugins ?? [])] });
  // One sibling per cold dependency the main bundle reached.
  for (const [name, entry] of [...coldDependencies].sort(([a], [b]) => a.localeCompare(b))) await build(coldDependencyOptions(dir, name, entry));
  // Part of the code cache key: V8 cannot tell two builds of equal length apart by itself.
  const buildId = createHash('sha256').update(readFileSync(mainFile)).digest('hex').slice(0, 32);
  await build({
    entryPoints: [join(here, 'src', 'launcher', 'start-hook.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    // Lowered for old Node: it checks the version first (src/launcher/node-version.ts), and a Node
    // that cannot parse it would print the minified source instead of the notice.
    target: 'node10',
    minify: true,
    legalComments: 'none',
    define: { __AGENT_CHECKPOINT_BUILD_ID__: JSON.stringify(buildId) },
    plugins: [monitorSiblingsExternal],
    banner: { js: '#!/usr/bin/env node' },
    logLevel: 'warning',
  });
  chmodSync(outfile, 0o755);
  await buildMonitor(dir);
  const legacy = join(dir, HOOK_LEGACY_NAME);
  writeFileSync(legacy, `#!/usr/bin/env node\n// Hook entries written by older versions run this file; it starts the current bin.\nimport './agent-checkpoint-hook.cjs';\n`);
  chmodSync(legacy, 0o755);
  // The configuration schema beside the bin (a local copy; `init` writes core's published URL instead,
  // which resolves the same from every clone).
  copyFileSync(join(here, '..', 'core', 'schema.json'), join(dir, 'schema.json'));
  return outfile;
}

/**
 * The monitor's four bundles (docs/context-checkpoints.md, "Monitor"): the gate that runs after every
 * tool call (payload, off switches, a probe of `context.enabled`; no zod), the decision it `require`s
 * once context checkpoints are on (the transcript's newest usage record, `decideMonitorAction`), the
 * checkpoint-state writer required when a write is due (the session-state store, zod/mini), and
 * the acting part (full configuration, handoff, WIP commit) required only when an L2/L3 action is
 * due. No code cache: the gate is small.
 */
export async function buildMonitor(dir) {
  for (const part of MONITOR_BUNDLE_PARTS) await build(monitorBundleOptions(dir, part));
}

/** The monitor's bundles, in build order. */
export const MONITOR_BUNDLE_PARTS = ['gate', 'decide', 'record', 'act'];

/**
 * esbuild options of one monitor bundle written into `dir` (tests inspect their metafiles: the gate and
 * the decision must stay free of zod and the configuration loader, src/post-tool/monitor-bundles.test.ts).
 */
export function monitorBundleOptions(dir, part) {
  const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    // The packages' `sideEffects: false` made esbuild drop the lazy `init_…()` call of a module that
    // is both imported statically here and part of a dynamic import() graph elsewhere (core's config
    // parser), so the model table was undefined at run time. Without the annotations every init runs;
    // so the gate and the decision import narrow entries (`core/hot-path`, `core/transcript-tail`,
    // `context-checkpoint/monitor`, the readers' `latest-usage`), never a package root.
    ignoreAnnotations: true,
    minify: true,
    keepNames: true,
    legalComments: 'none',
    define: { __AGENT_CHECKPOINT_VERSION__: JSON.stringify(pkg.version), 'import.meta.url': '__agentCheckpointImportMetaUrl', ...MONITOR_SPLIT },
    plugins: [stubZodLocales, monitorSiblingsExternal],
    logLevel: 'warning',
  };
  switch (part) {
    case 'gate':
      return { ...common, entryPoints: [join(here, 'src', 'post-tool', 'post-tool-bin.ts')], outfile: join(dir, HOOK_MONITOR_NAME) };
    case 'decide':
      return { ...common, entryPoints: [join(here, 'src', 'post-tool', 'monitor-decide-part.ts')], outfile: join(dir, HOOK_MONITOR_PARTS.decide) };
    case 'record':
      // The checkpoint-state write (a new level, an action, or 30 s): the session-state store and zod/mini only.
      return { ...common, entryPoints: [join(here, 'src', 'post-tool', 'record-monitor-state.ts')], outfile: join(dir, HOOK_MONITOR_PARTS.record) };
    case 'act':
      return {
        ...common,
        entryPoints: [join(here, 'src', 'post-tool', 'act-on-monitor.ts')],
        outfile: join(dir, HOOK_MONITOR_PARTS.act),
        // The main bundle's code reads its own URL through this parameter; here there is no wrapper.
        banner: { js: 'var __agentCheckpointImportMetaUrl = require("url").pathToFileURL(__filename).href;' },
      };
    default:
      throw new Error(`unknown monitor bundle part ${part}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildHook(process.argv[2]);
}
