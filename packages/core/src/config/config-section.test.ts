import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configCacheKey, readCachedConfig, writeCachedConfig } from './config-cache.ts';
import { classify } from './config-schema.ts';
import { ConfigSectionError, configSectionSource, sectionValue, type ConfigSection, type ConfigSectionSource } from './config-section.ts';
import { configFileSchemaWith, defineConfigSection } from './define-config-section.ts';
import { loadConfig } from './load-config.ts';
import { parseConfigText } from './parse-config-file.ts';
import { configDigest, recordTrust } from './project-config-trust.ts';
import { resolveConfig } from './resolve-config.ts';

/** A section registered by this test only: core knows nothing of `widget`. */
interface Widget {
  readonly size: number;
  readonly hook?: string;
}
const WidgetSchema = classify(
  z.strictObject({
    size: z.number().int().min(1).optional(),
    hook: z.string().min(1).optional(),
  }),
  { size: 'safe', hook: { privileged: 'a command the widget runs' } },
);
const WIDGET: ConfigSection<Widget> = defineConfigSection<Widget>({
  id: 'widget',
  schemas: { widget: WidgetSchema },
  defaults: { size: 3 },
  resolve(layers, defaults) {
    let out: Widget = defaults;
    const diagnostics: string[] = [];
    for (const layer of layers) {
      const raw = layer['widget'] as { size?: number; hook?: string };
      out = { ...out, ...(raw.size !== undefined ? { size: raw.size } : {}), ...(raw.hook !== undefined ? { hook: raw.hook } : {}) };
    }
    if (out.size > 10) diagnostics.push(`widget.size: ${out.size} is too large; using 10`);
    return { value: out.size > 10 ? { ...out, size: 10 } : out, diagnostics };
  },
});

let base: string;
let repo: string;
let home: string;
let stateDir: string;
let loads: ReadonlySet<string>[];
const env = { XDG_CONFIG_HOME: undefined, XDG_CACHE_HOME: undefined, AGENT_CHECKPOINT_CONFIG: undefined, AGENT_CHECKPOINT_STATE_DIR: undefined };

/** A lazy source like a package's `./load` manifest, recording every load. */
const source = (): ConfigSectionSource => ({
  keys: ['widget'],
  load: async (present) => {
    loads.push(present);
    return [WIDGET];
  },
});

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ac-section-')));
  repo = join(base, 'repo');
  home = join(base, 'home');
  stateDir = join(base, 'state');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(home);
  loads = [];
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

const project = (content: object): string => {
  const path = join(repo, '.agent-checkpoint.json');
  writeFileSync(path, JSON.stringify(content));
  return path;
};
const load = (sections: ConfigSectionSource | undefined, cacheDir: string | false = false) =>
  loadConfig({ cwd: repo, homeDir: home, env, cacheDir, stateDir, ...(sections === undefined ? {} : { sections }) });

describe('config sections registered with the loader', () => {
  it('a registered section validates, merges and resolves its keys; the typed accessor reads it', async () => {
    project({ widget: { size: 7 }, messages: { header: 'H' } });
    const { config, diagnostics } = await load(source());
    expect(diagnostics).toEqual([]);
    expect(sectionValue(config, WIDGET)).toEqual({ size: 7 });
    expect(config.messages.header).toBe('H');
    expect(loads.map((keys) => [...keys])).toEqual([['widget']]);
  });

  it('an unregistered top-level key is rejected as unknown, and the whole file ignored', async () => {
    project({ widget: { size: 7 }, messages: { header: 'H' } });
    const { config, diagnostics } = await load(undefined);
    expect(diagnostics.some((d) => d.endsWith('widget: unknown key'))).toBe(true);
    expect(config.messages.header).not.toBe('H');
    expect(sectionValue(config, WIDGET)).toEqual({ size: 3 });
  });

  it('the section is strict: an unknown key inside it is rejected with a suggestion', () => {
    const parsed = parseConfigText(JSON.stringify({ widget: { sise: 2 } }), [WIDGET]);
    expect(parsed).toEqual({ ok: false, problems: ['widget.sise: unknown key (did you mean "size"?)'] });
  });

  it('is never loaded when no file sets one of its keys; its accessor gives the defaults', async () => {
    project({ messages: { header: 'H' } });
    const { config } = await load(source());
    expect(loads).toEqual([]);
    expect(config.sections).toEqual({});
    expect(sectionValue(config, WIDGET)).toBe(WIDGET.defaults);
  });

  it("reports the resolver's diagnostics", async () => {
    project({ widget: { size: 99 } });
    const { config, diagnostics } = await load(source());
    expect(sectionValue(config, WIDGET).size).toBe(10);
    expect(diagnostics).toEqual(['widget.size: 99 is too large; using 10']);
  });

  it("an untrusted project file cannot set a section's privileged key; trusting that file applies it", async () => {
    const path = project({ widget: { size: 5, hook: 'touch /tmp/never' } });
    const untrusted = await load(source());
    expect(sectionValue(untrusted.config, WIDGET)).toEqual({ size: 5 });
    expect(untrusted.untrusted?.ignoredKeys).toEqual(['widget.hook']);
    expect(untrusted.diagnostics).toEqual([untrusted.untrusted?.diagnostic]);
    await recordTrust(stateDir, realpathSync(path), configDigest(readFileSync(path)));
    const trusted = await load(source());
    expect(trusted.untrusted).toBeUndefined();
    expect(sectionValue(trusted.config, WIDGET)).toEqual({ size: 5, hook: 'touch /tmp/never' });
  });

  it('the cache key includes the registered section keys; a file with a privileged section key is never cached', async () => {
    expect(configCacheKey('{}', ['widget'])).not.toBe(configCacheKey('{}'));
    expect(configCacheKey('{}', ['a', 'b'])).toBe(configCacheKey('{}', ['b', 'a']));
    const cacheDir = join(base, 'cache');
    mkdirSync(cacheDir, { mode: 0o700 });
    const text = JSON.stringify({ widget: { size: 4, hook: 'x' } });
    project(JSON.parse(text) as object);
    const key = configCacheKey(text, ['widget']);
    await load(source(), cacheDir);
    expect(readCachedConfig(cacheDir, key)).toBeUndefined();
    // A planted entry for those bytes, holding the privileged key, is not believed: the file is
    // validated again from its bytes and stays untrusted.
    writeFileSync(join(cacheDir, `${key}.json`), JSON.stringify({ widget: { size: 4, hook: 'planted' } }));
    const again = await load(source(), cacheDir);
    expect(again.untrusted?.ignoredKeys).toEqual(['widget.hook']);
    expect(sectionValue(again.config, WIDGET)).toEqual({ size: 4 });
    // A safe file is cached under the key with sections, and that entry is used next time.
    const safe = JSON.stringify({ widget: { size: 2 } });
    project(JSON.parse(safe) as object);
    await load(source(), cacheDir);
    expect(readCachedConfig(cacheDir, configCacheKey(safe, ['widget']))).toEqual({ widget: { size: 2 } });
    writeCachedConfig(cacheDir, configCacheKey(safe, ['widget']), { widget: { size: 6 } } as never);
    expect(sectionValue((await load(source(), cacheDir)).config, WIDGET)).toEqual({ size: 6 });
  });

  it('derives the privileged keys from the classification; refuses a key of core or one claimed twice', () => {
    expect(WIDGET.privilegedKeys).toEqual([{ path: ['widget', 'hook'], why: 'a command the widget runs' }]);
    const safe = classify(z.strictObject({ a: z.boolean().optional() }), { a: 'safe' });
    expect(() => defineConfigSection({ id: 'x', schemas: { messages: safe }, defaults: {}, resolve: () => ({ value: {} }) })).toThrow(ConfigSectionError);
    expect(() => defineConfigSection({ id: 'x', schemas: { y: z.strictObject({}) }, defaults: {}, resolve: () => ({ value: {} }) })).toThrow(/not classified/);
    const twin = defineConfigSection({ id: 'twin', schemas: { widget: safe }, defaults: {}, resolve: () => ({ value: {} }) });
    expect(() => configFileSchemaWith([WIDGET, twin])).toThrow(/both claim "widget"/);
  });

  it('resolveConfig leaves a section no layer sets unresolved, and an eager source loads only what is present', async () => {
    expect(resolveConfig([], [WIDGET]).sections).toEqual({});
    const eager = configSectionSource([WIDGET]);
    expect(eager.keys).toEqual(['widget']);
    expect(await eager.load(new Set(['other']))).toEqual([]);
    expect(await eager.load(new Set(['widget']))).toEqual([WIDGET]);
  });
});
