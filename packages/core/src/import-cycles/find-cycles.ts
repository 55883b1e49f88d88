/**
 * Test support for `import-cycles.test.ts`: the import circles of one graph. Files that reach each
 * other form one strongly connected component (Tarjan); each component is reported with shortest
 * circles through its files until every file of it lies on one, so a reader sees every loop to cut
 * without the exponential list of all elementary circles. Not exported from any entry.
 */
import type { ImportEdge, ImportGraph } from './import-graph.ts';

/** Files that all reach each other through imports, and circles that cover them. */
export interface ImportCycle {
  /** Files of the component, sorted. */
  readonly files: readonly string[];
  /** Shortest circles, each as its edges in order; the last edge returns to the first file. */
  readonly chains: readonly (readonly ImportEdge[])[];
}

/** Strongly connected components with a circle: two or more files, or one file importing itself. */
function circularComponents(graph: ImportGraph, out: Map<string, ImportEdge[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  // Iterative Tarjan: a package's import depth must not be bounded by the JS call stack.
  for (const start of graph.files) {
    if (index.has(start)) continue;
    const work: { file: string; next: number }[] = [{ file: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = out.get(frame.file) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!.to;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ file: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.file, Math.min(low.get(frame.file)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.file);
      const selfLoop = component.length === 1 && edges.some((e) => e.to === frame.file);
      if (component.length > 1 || selfLoop) components.push(component.sort());
    }
  }
  return components;
}

/** The shortest circle from `start` back to it inside `members` (breadth-first). */
function shortestCircle(start: string, members: ReadonlySet<string>, out: Map<string, ImportEdge[]>): ImportEdge[] {
  const via = new Map<string, ImportEdge>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const edge of out.get(queue[i]!) ?? []) {
      if (!members.has(edge.to)) continue;
      if (edge.to === start) {
        const chain = [edge];
        for (let at = edge.from; at !== start; at = via.get(at)!.from) chain.unshift(via.get(at)!);
        return chain;
      }
      if (via.has(edge.to)) continue;
      via.set(edge.to, edge);
      queue.push(edge.to);
    }
  }
  throw new Error(`${start} is in a strongly connected component but on no circle`);
}

/** Every import circle of `graph`, one entry per strongly connected component, in file order. */
export function findImportCycles(graph: ImportGraph): ImportCycle[] {
  const out = new Map<string, ImportEdge[]>();
  for (const edge of graph.edges) out.set(edge.from, [...(out.get(edge.from) ?? []), edge]);
  return circularComponents(graph, out)
    .map((files) => {
      const members = new Set(files);
      const covered = new Set<string>();
      const chains: ImportEdge[][] = [];
      for (const file of files) {
        if (covered.has(file)) continue;
        const chain = shortestCircle(file, members, out);
        for (const edge of chain) covered.add(edge.from);
        chains.push(chain);
      }
      return { files, chains };
    })
    .sort((a, b) => a.files[0]!.localeCompare(b.files[0]!));
}

/** A circle as a readable chain: `a.ts:3 (import type) -> b.ts:9 (import) -> a.ts`. */
export function formatChain(chain: readonly ImportEdge[]): string {
  return `${chain.map((e) => `${e.from}:${e.line} (${e.kind})`).join(' -> ')} -> ${chain[0]!.from}`;
}
