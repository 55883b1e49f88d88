import { describe, expect, it } from 'vitest';
import { moduleReferences } from './module-references.ts';

describe('moduleReferences', () => {
  it('finds static imports, re-exports, import(), require() and esbuild\'s __require() in minified code', () => {
    const code = [
      'import{a as b}from"zod";import"side-effect";export*from"./chunk-1.js";export{c}from\'@scope/pkg/sub\';',
      'var x=require("fs"),y=__require("fast-glob");const z=await import("./lazy-2.js");',
      'function f(){return n.other("not-a-module")+require(name)}',
      'const s="import q from \\"inside-a-string\\"";',
    ].join('\n');
    expect(moduleReferences('bundle.mjs', code)).toEqual([
      { kind: 'import', specifier: 'zod' },
      { kind: 'import', specifier: 'side-effect' },
      { kind: 'export', specifier: './chunk-1.js' },
      { kind: 'export', specifier: '@scope/pkg/sub' },
      { kind: 'require', specifier: 'fs' },
      { kind: 'require', specifier: 'fast-glob' },
      { kind: 'dynamic-import', specifier: './lazy-2.js' },
      { kind: 'require', specifier: null },
    ]);
  });

  it('reads an identifier argument as the string constant it names, and only then', () => {
    const code = [
      'async function a(){const specifier="node:sqlite";return import(specifier)}',
      'async function b(){let mutable="zod";return import(mutable)}',
      'async function c(){const twice="x";return import(twice)} async function d(){const twice="y";return import(twice)}',
    ].join('\n');
    expect(moduleReferences('chunk.js', code).map((ref) => ref.specifier)).toEqual(['node:sqlite', null, null, null]);
  });

  it('finds import() types and import-equals in declaration files', () => {
    const code = 'import x = require("legacy");\nexport declare const y: import("@agent-checkpoint/core").AgentId;\nexport type { Z } from "./z.js";\n';
    expect(moduleReferences('index.d.ts', code)).toEqual([
      { kind: 'require', specifier: 'legacy' },
      { kind: 'import-type', specifier: '@agent-checkpoint/core' },
      { kind: 'export', specifier: './z.js' },
    ]);
  });
});
