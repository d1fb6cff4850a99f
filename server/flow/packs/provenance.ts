import { pathKey } from './paths.ts';

// Which layer last set each field of a merged flow, indexed by path segment:
// a tree, so that dropping or moving everything below a node or edge costs
// what is below it, not every field of the flow (a 3,000-question flow's merge
// stays linear in its size).

interface Branch {
  /** The layer label set exactly at this path, if any. */
  label?: string;
  children: Map<string, Branch>;
}

const branch = (): Branch => ({ children: new Map() });

/** Field path → label of the layer that set it, with subtree removal and moves. */
export class ProvenanceTree {
  private root = branch();

  /** Records that `label` set the field at `segs`. */
  set(segs: readonly string[], label: string): void {
    let at = this.root;
    for (const s of segs) {
      let next = at.children.get(s);
      if (!next) at.children.set(s, (next = branch()));
      at = next;
    }
    at.label = label;
  }

  /** Drops the entries at and below `segs`. */
  forget(segs: readonly string[]): void {
    this.detach(segs);
  }

  /** Moves the entries at and below `from` to `to` (they replace what `to` had at the same paths). */
  move(from: readonly string[], to: readonly string[]): void {
    const moved = this.detach(from);
    if (!moved) return;
    const graft = (b: Branch, segs: readonly string[]) => {
      if (b.label !== undefined) this.set(segs, b.label);
      for (const [k, child] of b.children) graft(child, [...segs, k]);
    };
    graft(moved, to);
  }

  /** The label at `segs` or at its nearest ancestor that has one. */
  nearest(segs: readonly string[]): string | undefined {
    let at: Branch | undefined = this.root;
    let found: string | undefined;
    for (const s of segs) {
      at = at.children.get(s);
      if (!at) break;
      if (at.label !== undefined) found = at.label;
    }
    return found;
  }

  /** Every entry as `path → label`, keys sorted. */
  entries(): Record<string, string> {
    const out: Array<[string, string]> = [];
    const walk = (b: Branch, segs: string[]) => {
      if (b.label !== undefined && segs.length) out.push([pathKey(segs), b.label]);
      for (const [k, child] of b.children) walk(child, [...segs, k]);
    };
    walk(this.root, []);
    return Object.fromEntries(out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** Cuts the branch at `segs` out of the tree and returns it. */
  private detach(segs: readonly string[]): Branch | undefined {
    if (segs.length === 0) {
      const all = this.root;
      this.root = branch();
      return all;
    }
    let at: Branch | undefined = this.root;
    for (const s of segs.slice(0, -1)) {
      at = at.children.get(s);
      if (!at) return undefined;
    }
    const last = segs[segs.length - 1]!;
    const cut = at.children.get(last);
    at.children.delete(last);
    return cut;
  }
}
