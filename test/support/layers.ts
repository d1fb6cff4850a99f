import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The layering rule of the repository (docs/architecture.md): a folder of
 * server/ imports only from folders below it, never from a sibling; client/
 * imports only the browser-safe wire protocol and the shared graph shapes;
 * no import cycle between files anywhere.
 */
export const LAYERS: ReadonlyArray<readonly string[]> = [
  ['server/shared', 'server/language'],
  ['server/protocol'],
  ['server/flow'],
  ['server/engine'],
  ['server/extract', 'server/store', 'server/render', 'server/observability'],
  ['server/catalog', 'server/delivery'],
  ['server/redis'],
  ['server/conversation'],
  ['server/golden', 'server/testing'],
  ['server/transport'],
  ['server/transport/http', 'server/transport/socket'],
  ['server'],
  ['server/api'],
  ['server/cli'],
];

/** What client/ may import from server/. */
export const CLIENT_MAY_IMPORT: readonly string[] = ['server/protocol/', 'server/render/shapes.ts', 'server/render/text.ts'];

/** One import between two files of the repository, paths relative to the root with `/`. */
export interface Edge {
  from: string;
  to: string;
}

/** A broken rule, in words a developer can act on. */
export interface Violation {
  kind: 'upward' | 'sibling' | 'client' | 'cycle';
  message: string;
}

const posix = (p: string) => p.split(sep).join('/');

/** The layer folder a server file belongs to: the longest listed folder that contains it. */
export function layerOf(file: string): { folder: string; rank: number } | null {
  let best: { folder: string; rank: number } | null = null;
  LAYERS.forEach((folders, rank) => {
    for (const folder of folders) {
      const inside = folder === 'server' ? /^server\/[^/]+\.ts$/.test(file) : file.startsWith(folder + '/');
      if (inside && (!best || folder.length > best.folder.length)) best = { folder, rank };
    }
  });
  return best;
}

/** Every relative import (static, type-only, re-export, dynamic) of the .ts files under `dirs`. */
export function importGraph(root: string, dirs: readonly string[]): Edge[] {
  const edges: Edge[] = [];
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      if (name === 'node_modules' || name === 'dist') return [];
      return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
    });
  for (const dir of dirs) {
    for (const file of walk(join(root, dir))) {
      const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      for (const ref of info.importedFiles) {
        if (!ref.fileName.startsWith('.')) continue;
        edges.push({ from: posix(relative(root, file)), to: posix(relative(root, resolve(dirname(file), ref.fileName))) });
      }
    }
  }
  return edges;
}

/** Imports that point up the layer order, across siblings, or out of the client's allowance. */
export function directionViolations(edges: readonly Edge[]): Violation[] {
  const out: Violation[] = [];
  for (const { from, to } of edges) {
    if (from.startsWith('client/')) {
      if (to.startsWith('server/') && !CLIENT_MAY_IMPORT.some((p) => (p.endsWith('/') ? to.startsWith(p) : to === p))) {
        out.push({ kind: 'client', message: `${from} imports ${to}: client code may import only ${CLIENT_MAY_IMPORT.join(', ')}` });
      }
      continue;
    }
    const a = layerOf(from);
    const b = layerOf(to);
    if (!a || !b || a.folder === b.folder) continue;
    if (b.rank > a.rank) out.push({ kind: 'upward', message: `${from} imports ${to}: ${a.folder} sits below ${b.folder}` });
    else if (b.rank === a.rank) out.push({ kind: 'sibling', message: `${from} imports ${to}: ${a.folder} and ${b.folder} are siblings` });
  }
  return out;
}

/** Import cycles between files (strongly connected components of more than one file, or a file importing itself). */
export function cycles(edges: readonly Edge[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!graph.has(from)) graph.set(from, []);
    if (!graph.has(to)) graph.set(to, []);
    graph.get(from)!.push(to);
  }
  // Tarjan, iterative so a long chain cannot overflow the stack
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  for (const start of [...graph.keys()].sort()) {
    if (idx.has(start)) continue;
    const work: Array<{ node: string; i: number }> = [{ node: start, i: 0 }];
    idx.set(start, index); low.set(start, index); index++;
    stack.push(start); onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1]!;
      const next = graph.get(top.node)!;
      if (top.i < next.length) {
        const w = next[top.i++]!;
        if (!idx.has(w)) {
          idx.set(w, index); low.set(w, index); index++;
          stack.push(w); onStack.add(w);
          work.push({ node: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.node, Math.min(low.get(top.node)!, idx.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === idx.get(top.node)) {
        const scc: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          scc.push(w);
        } while (w !== top.node);
        if (scc.length > 1 || next.includes(top.node)) found.push(scc.sort());
      }
    }
  }
  return found;
}

/** Every violation of the layering rule in the repository at `root`. */
export function checkLayers(root: string): Violation[] {
  const edges = importGraph(root, ['server', 'client']);
  return [
    ...directionViolations(edges),
    ...cycles(edges).map((c) => ({ kind: 'cycle' as const, message: `import cycle: ${c.join(' → ')}` })),
  ];
}
