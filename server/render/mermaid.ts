import type { CompiledFlow, CompiledNode } from '../flow/compiled-flow.ts';
import { EXIT } from '../flow/desugar.ts';
import { push } from '../flow/graph-analysis.ts';

/** Mermaid node ids allow letters, digits and underscores only. */
const mid = (id: string) => `n_${id.replace(/[^A-Za-z0-9_]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)}`;

/** Text inside a quoted Mermaid label: quotes and angle brackets as entities, one line. */
const text = (s: string) =>
  s.replace(/\s+/g, ' ').trim().replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;').slice(0, 80);

function shape(c: CompiledNode): string {
  const n = c.node;
  const title = n.type === 'question' ? `${n.label ?? n.id}<br/><i>${n.key}</i>` : (n.label ?? n.id);
  const label = `"${text(title).replace(/#lt;br\/#gt;/g, '<br/>').replace(/#lt;(\/?)i#gt;/g, '<$1i>')}"`;
  switch (n.type) {
    case 'question': return `${mid(n.id)}[${label}]`;
    case 'decision': return `${mid(n.id)}{${label}}`;
    case 'action': return `${mid(n.id)}[[${label}]]`;
    case 'subgraph': return `${mid(n.id)}[/${label}/]`;
    case 'terminal': return `${mid(n.id)}([${label}])`;
    case 'review': return `${mid(n.id)}{{${label}}}`;
  }
}

/** Renders a compiled flow as a Mermaid flowchart: subgraphs as clusters, guards as edge labels. */
export function renderMermaid(flow: CompiledFlow): string {
  const lines = ['flowchart TD'];
  const scopes = new Map<string | null, CompiledNode[]>();
  for (const c of flow.nodes.values()) push(scopes, c.scope, c);
  for (const c of scopes.get(null) ?? []) lines.push(`  ${shape(c)}`);
  for (const name of flow.subgraphs.keys()) {
    lines.push(`  subgraph ${mid(name)}["${text(flow.source.subgraphs?.[name]?.label ?? name)}"]`);
    for (const c of scopes.get(name) ?? []) lines.push(`    ${shape(c)}`);
    lines.push(`    ${mid(`${name}.__exit__`)}(("exit"))`);
    lines.push('  end');
  }
  for (const e of flow.edges) {
    const from = flow.nodes.get(e.from);
    const target = e.to === EXIT ? mid(`${from?.scope ?? ''}.__exit__`) : mid(e.to);
    const parts = [e.on ? `on ${e.on}` : '', e.guard === 'else' ? 'else' : e.guard ? e.guard.source : ''].filter(Boolean);
    const arrow = e.on ? '-.->' : '-->';
    lines.push(`  ${mid(e.from)} ${arrow}${parts.length ? `|"${text(parts.join(': '))}"|` : ''} ${target}`);
  }
  for (const c of flow.nodes.values()) {
    if (c.node.type === 'subgraph' && flow.subgraphs.has(c.node.ref)) {
      lines.push(`  ${mid(c.node.id)} -.-> ${mid(flow.subgraphs.get(c.node.ref)!.entry)}`);
    }
  }
  lines.push(`  classDef terminal fill:#e8f5e9,stroke:#2e7d32`);
  const terminals = [...flow.nodes.values()].filter((c) => c.node.type === 'terminal').map((c) => mid(c.node.id));
  if (terminals.length) lines.push(`  class ${terminals.join(',')} terminal`);
  return `${lines.join('\n')}\n`;
}
