import type { MergeStrategy } from '../schema.ts';

// The merge report: every change a layer made and every conflict, as data.
// Sorted by layer (application order), then target, id, field, so the same
// layers give a byte-identical report on every run.

/** A layer as the report names it. */
export interface LayerInfo {
  /** `global`, `industry lighting`, `tenant acme`, `instance`… */
  name: string;
  kind: 'global' | 'industry' | 'tenant' | 'instance';
  file?: string;
}

/** One change (or refused change) to a node, an edge, or a flow-level field. */
export interface ReportEntry {
  target: 'flow' | 'node' | 'edge';
  /** Node id, edge id (or `from->to` when it has none), or the flow id. */
  id: string;
  /** Field path below the target (`prompt`, `answer.options`, `paths.prompt`); '' for the whole node or edge. */
  field: string;
  action: 'add' | 'change' | 'remove';
  layer: string;
  file?: string;
  strategy: MergeStrategy;
  before?: unknown;
  after?: unknown;
  /** The layer that had set the value this change replaces. */
  replaces?: string;
  /** Why it happened when the layer did not say so itself: an edge removed with its node. */
  cause?: string;
  /** Where a new node went: `top level`, `subgraph.led_path after q.sport`. */
  place?: string;
  /** Set on refused changes: the `error` rule's pattern and the layer that declared it. */
  conflict?: { rule: string; layer: string };
}

/** Everything one merge did. */
export interface MergeReport {
  flow: string;
  layers: LayerInfo[];
  changes: ReportEntry[];
  conflicts: ReportEntry[];
}

/** Renders the layer label used in provenance: `tenant acme (flows/tenants/acme/sales.json)`. */
export function layerLabel(layer: LayerInfo): string {
  return layer.file ? `${layer.name} (${layer.file})` : layer.name;
}

const TARGET_ORDER = { flow: 0, node: 1, edge: 2 } as const;
const ACTION_ORDER = { remove: 0, add: 1, change: 2 } as const;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Sorts entries: layer order, then target (flow, node, edge), id, field, action. */
export function sortEntries(entries: readonly ReportEntry[], layers: readonly LayerInfo[]): ReportEntry[] {
  const rank = new Map(layers.map((l, i) => [l.name + '\u0000' + (l.file ?? ''), i]));
  const r = (e: ReportEntry) => rank.get(e.layer + '\u0000' + (e.file ?? '')) ?? layers.length;
  return [...entries].sort(
    (a, b) =>
      r(a) - r(b) ||
      TARGET_ORDER[a.target] - TARGET_ORDER[b.target] ||
      cmp(a.id, b.id) ||
      cmp(a.field, b.field) ||
      ACTION_ORDER[a.action] - ACTION_ORDER[b.action],
  );
}

/** Short JSON for one side of a change: long strings and lists are cut. */
export function brief(value: unknown, max = 72): string {
  if (value === undefined) return '(unset)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** What a concat added: the items of `after` that are not in `before`, by JSON. */
function added(before: unknown, after: unknown): unknown[] | undefined {
  if (!Array.isArray(before) || !Array.isArray(after)) return undefined;
  const seen = new Set(before.map((x) => JSON.stringify(x)));
  return after.filter((x) => !seen.has(JSON.stringify(x)));
}

/** One line of the text report; `base` is the base layer's label, whose replacement goes without saying. */
export function formatEntry(e: ReportEntry, base?: string): string {
  const sign = e.conflict ? '!' : e.action === 'add' ? '+' : e.action === 'remove' ? '-' : '~';
  const what = `${e.target} ${e.id}${e.field ? ` ${e.field}` : ''}`;
  let detail: string;
  if (e.conflict) {
    detail = `refused: ${e.conflict.layer} marks '${e.conflict.rule}' as error (${brief(e.before, 40)} → ${brief(e.after, 40)})`;
  } else if (e.field === '' && e.action === 'add') {
    const v = e.after as { type?: string; from?: string; to?: string } | undefined;
    detail = e.target === 'edge' ? `${v?.from} -> ${v?.to}` : `${v?.type ?? 'node'}${e.place ? `, ${e.place}` : ''}`;
  } else if (e.field === '' && e.action === 'remove') {
    const v = e.before as { from?: string; to?: string } | undefined;
    detail = e.target === 'edge' ? `${v?.from} -> ${v?.to}` : 'removed';
  } else if (e.strategy === 'concat') {
    const extra = added(e.before, e.after);
    detail = extra ? `+ ${brief(extra)}` : `${brief(e.before, 40)} → ${brief(e.after, 40)}`;
  } else {
    detail = `${brief(e.before, 48)} → ${brief(e.after, 48)}`;
  }
  const notes = [e.strategy !== 'override' && !e.conflict ? e.strategy : '', e.cause ?? '', e.replaces && e.replaces !== base ? `over ${e.replaces.replace(/ \(.*\)$/, '')}` : '']
    .filter(Boolean)
    .join('; ');
  return `${sign} [${e.layer}] ${what}: ${detail}${notes ? ` (${notes})` : ''}`;
}

/** The human report `questline merge --report` prints. */
export function formatReport(report: MergeReport): string {
  const lines = [`merge report for ${report.flow}`, 'layers:'];
  report.layers.forEach((l, i) => lines.push(`  ${i + 1}. ${l.name}${l.file ? `  ${l.file}` : ''}`));
  lines.push(`changes (${report.changes.length}):`);
  const base = report.layers[0] ? layerLabel(report.layers[0]) : undefined;
  for (const e of report.changes) lines.push(`  ${formatEntry(e, base)}`);
  lines.push(report.conflicts.length ? `conflicts (${report.conflicts.length}):` : 'conflicts: none');
  for (const e of report.conflicts) lines.push(`  ${formatEntry(e, base)}`);
  return `${lines.join('\n')}\n`;
}
