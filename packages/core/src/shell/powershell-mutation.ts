import type { ShellWord } from './unwrap-command.ts';

/** What a PowerShell file cmdlet does to its targets (a subset of `MutationEffect`). */
export type PowerShellEffect = 'write' | 'append' | 'create' | 'delete' | 'move';

/** One target of a PowerShell file cmdlet, as written (relative to the segment's directory, or absolute). */
export interface PowerShellTarget {
  readonly word: ShellWord;
  readonly effect: PowerShellEffect;
}

/**
 * Parameters that take a value, across the file cmdlets below (PowerShell parameter names ignore
 * case). Any other `-Name` is read as a switch (`-Force`, `-Recurse`, `-NoNewline`, `-Append`…). A
 * value that is wrongly taken for a switch's neighbour could only name a file the cmdlet does not
 * touch, so the list errs towards value-taking parameters.
 */
const VALUE_PARAMETERS = new Set([
  '-path',
  '-literalpath',
  '-pspath',
  '-lp',
  '-destination',
  '-value',
  '-encoding',
  '-itemtype',
  '-type',
  '-name',
  '-newname',
  '-filter',
  '-include',
  '-exclude',
  '-credential',
  '-stream',
  '-filepath',
  '-inputobject',
  '-width',
  '-target',
  '-erroraction',
  '-ea',
  '-warningaction',
  '-wa',
  '-errorvariable',
  '-ev',
  '-outvariable',
  '-ov',
  '-informationaction',
  '-delimiter',
]);

/** The file cmdlets read, by lower-case name (and the aliases no POSIX system uses for something else). */
const CMDLETS: Readonly<Record<string, { readonly effect: PowerShellEffect; readonly destination?: boolean; readonly pathParameter?: string }>> = {
  'remove-item': { effect: 'delete' },
  del: { effect: 'delete' },
  erase: { effect: 'delete' },
  'set-content': { effect: 'write' },
  'clear-content': { effect: 'write' },
  'add-content': { effect: 'append' },
  'out-file': { effect: 'write', pathParameter: '-filepath' },
  'new-item': { effect: 'create' },
  'copy-item': { effect: 'write', destination: true },
  'move-item': { effect: 'move', destination: true },
  'rename-item': { effect: 'move' },
};

/**
 * The files a PowerShell file cmdlet changes (`Remove-Item`, `Set-Content`, `Add-Content`,
 * `Out-File`, `New-Item`, `Copy-Item`, `Move-Item`, `Rename-Item`, `Clear-Content`), or undefined
 * when `program` is none of them. Targets come from `-Path`/`-LiteralPath` (`-FilePath` for
 * `Out-File`) or the first positional argument; `Copy-Item`/`Move-Item` write their `-Destination`
 * (or second positional); `Move-Item` and `Rename-Item` also remove their source; `Out-File -Append`
 * appends. `-Name:value` and `-Name value` are both read.
 */
export function powerShellMutation(program: string, args: readonly ShellWord[]): { readonly targets: readonly PowerShellTarget[] } | undefined {
  const key = program.toLowerCase();
  const cmdlet = Object.hasOwn(CMDLETS, key) ? CMDLETS[key] : undefined;
  if (cmdlet === undefined) return undefined;
  const named = new Map<string, ShellWord>();
  const switches = new Set<string>();
  const positional: ShellWord[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    const v = word.value;
    if (!word.quoted && /^-[A-Za-z][\w-]*(?::.*)?$/.test(v)) {
      const colon = v.indexOf(':');
      const name = (colon === -1 ? v : v.slice(0, colon)).toLowerCase();
      if (colon !== -1) named.set(name, { ...word, value: v.slice(colon + 1) });
      else if (VALUE_PARAMETERS.has(name) && i + 1 < args.length) named.set(name, args[(i += 1)]!);
      else switches.add(name);
      continue;
    }
    positional.push(word);
  }
  const source = named.get(cmdlet.pathParameter ?? '-path') ?? named.get('-literalpath') ?? named.get('-lp') ?? positional[0];
  const targets: PowerShellTarget[] = [];
  const add = (word: ShellWord | undefined, effect: PowerShellEffect): void => {
    if (word !== undefined) targets.push({ word, effect });
  };
  if (cmdlet.destination === true) {
    const destination = named.get('-destination') ?? positional[source === positional[0] ? 1 : 0];
    if (cmdlet.effect === 'move') add(source, 'move');
    add(destination, cmdlet.effect === 'move' ? 'move' : 'write');
    return { targets };
  }
  if (key === 'rename-item') {
    add(source, 'move');
    const newName = named.get('-newname') ?? positional[source === positional[0] ? 1 : 0];
    if (source !== undefined && newName !== undefined && !/[\\/]/.test(newName.value)) {
      const dir = source.value.replace(/[^\\/]*$/, '');
      add({ ...newName, value: `${dir}${newName.value}` }, 'move');
    }
    return { targets };
  }
  if (key === 'new-item' && named.has('-name')) {
    const name = named.get('-name')!;
    const base = source?.value ?? '.';
    add({ ...name, value: `${base.replace(/[\\/]+$/, '')}/${name.value}`, dynamic: name.dynamic || (source?.dynamic ?? false) }, 'create');
    return { targets };
  }
  add(source, key === 'out-file' && switches.has('-append') ? 'append' : cmdlet.effect);
  return { targets };
}
