// The console's Insights view (docs/insights.md): a flow's funnel from the
// maintained counts — on the flow map (reach on nodes, sessions on edges, the
// worst drop-off called out), as bars per question, the questions asked again
// most and why, completion per day, two revisions compared — and a visitor's
// own data (find, download, erase). Every text from the server is set as text.

import type { AdminApi } from './api.ts';
import { FlowMap, type MapOverlay } from './flow-map.ts';
import { drawDays, drawSteps, type StepBar } from './insights-chart.ts';
import { compareRates } from './insights-compare.ts';
import type { GraphLayout, TenantInfo } from './types.ts';

/** `GET …/funnel` (server/store/funnel-report.ts). */
interface Funnel {
  sessions: number;
  completed: number;
  escalated: number;
  abandoned: number;
  median_completion_s: number | null;
  p90_completion_s: number | null;
  nodes: Array<{ id: string; key: string | null; reached: number; answered: number; reasked: number; dropped: number; escalated: number; reasons: Array<{ reason: string; count: number }> }>;
}

/** `GET …/insights`. */
interface Overview {
  current: string | null;
  /** The tenant's variant of this flow (tenant.json `variants`): the revision served beside the current one, to what share. */
  variant: { revision: string; share: number } | null;
  revisions: Array<{ revision: string; sessions: number; firstDay: string; lastDay: string }>;
  days: Array<{ day: string; sessions: number; completed: number; escalated: number; abandoned: number }>;
  open: Record<string, number>;
  edges: Record<string, number>;
}

interface VisitorExport {
  count: number;
  sessions: Array<{ id: string; flowId: string; status: string; createdAt: string; answers: Record<string, unknown> }>;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`#${id} is missing from the page`);
  return e as T;
};

function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

const pct = (n: number, of: number) => (of > 0 ? `${Math.round((n / of) * 100)}%` : '–');

/** Seconds in words: "45 s", "3 min 20 s", "2 h 5 min". */
function duration(s: number | null): string {
  if (s === null) return '–';
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** Downloads a Blob under a file name. */
function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The Insights view: call `start` once signed in, `show` when it is opened. */
export class InsightsView {
  private api: AdminApi | null = null;
  private tenants: TenantInfo[] = [];
  private readonly map = new FlowMap($('ins-map'));
  private readonly ui = {
    status: $('insights-status'),
    form: $<HTMLFormElement>('insights-filters'),
    flow: $<HTMLSelectElement>('ins-flow'),
    from: $<HTMLInputElement>('ins-from'),
    to: $<HTMLInputElement>('ins-to'),
    revision: $<HTMLSelectElement>('ins-revision'),
    compare: $<HTMLSelectElement>('ins-compare'),
    csv: $<HTMLButtonElement>('ins-csv'),
    cards: $('ins-cards'),
    worst: $('ins-worst'),
    chart: $('ins-chart'),
    reasons: $('ins-reasons'),
    days: $('ins-days'),
    comparison: $('ins-comparison'),
    visitorForm: $<HTMLFormElement>('visitor-form'),
    visitorValue: $<HTMLInputElement>('visitor-value'),
    visitorDownload: $<HTMLButtonElement>('visitor-download'),
    visitorErase: $<HTMLButtonElement>('visitor-erase'),
    visitorStatus: $('visitor-status'),
    visitorSessions: $('visitor-sessions'),
  };
  private visitor: { query: string; data: VisitorExport } | null = null;
  private generation = 0;
  /** The operator chose what to compare (then a variant is not pre-selected). */
  private picked = false;
  private variantRevision: string | null = null;

  constructor(private readonly onError: (err: unknown) => string) {
    this.ui.form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.show();
    });
    this.ui.flow.addEventListener('change', () => {
      this.ui.revision.value = '';
      this.ui.compare.value = '';
      this.picked = false;
      void this.show();
    });
    this.ui.compare.addEventListener('change', () => {
      this.picked = true;
    });
    this.ui.csv.addEventListener('click', () => void this.csv());
    $('ins-zoom-in').addEventListener('click', () => this.map.zoomBy(1.25));
    $('ins-zoom-out').addEventListener('click', () => this.map.zoomBy(0.8));
    $('ins-zoom-fit').addEventListener('click', () => this.map.fit());
    this.ui.visitorForm.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.findVisitor();
    });
    this.ui.visitorDownload.addEventListener('click', () => {
      if (this.visitor) download(new Blob([JSON.stringify(this.visitor.data, null, 2)], { type: 'application/json' }), 'visitor-data.json');
    });
    this.ui.visitorErase.addEventListener('click', () => void this.eraseVisitor());
  }

  /** Signed in: the flows to choose from. */
  start(api: AdminApi, tenants: TenantInfo[]): void {
    this.api = api;
    this.tenants = tenants;
    const current = this.ui.flow.value;
    this.ui.flow.replaceChildren(...tenants.flatMap((t) => t.flows.map((f) => h('option', { value: `${t.id}|${f.id}` }, `${t.name} — ${f.label ?? f.id}`))));
    if (current) this.ui.flow.value = current;
  }

  /** Signed out: forget everything shown. */
  stop(): void {
    this.api = null;
    this.visitor = null;
    this.map.clear();
  }

  private chosen(): { tenant: string; flow: string } | null {
    const [tenant, flow] = this.ui.flow.value.split('|');
    return tenant && flow ? { tenant, flow } : null;
  }

  private query(revision?: string): string {
    const q = new URLSearchParams();
    if (this.ui.from.value) q.set('from', this.ui.from.value);
    if (this.ui.to.value) q.set('to', this.ui.to.value);
    if (revision) q.set('revision', revision);
    const s = q.toString();
    return s ? `?${s}` : '';
  }

  /** Loads and draws the chosen flow's funnel. */
  async show(): Promise<void> {
    const c = this.chosen();
    if (!this.api || !c) return;
    const gen = ++this.generation;
    const base = `/tenants/${encodeURIComponent(c.tenant)}/flows/${encodeURIComponent(c.flow)}`;
    const revision = this.ui.revision.value;
    this.ui.status.textContent = 'Loading…';
    try {
      const [funnel, overview, layout] = await Promise.all([
        this.api.get<Funnel>(`${base}/funnel${this.query(revision)}`),
        this.api.get<Overview>(`${base}/insights${this.query(revision)}`),
        this.api.get<GraphLayout>(`${base}/graph${revision ? `?revision=${encodeURIComponent(revision)}` : ''}`).catch(() => null),
      ]);
      if (gen !== this.generation) return;
      this.variantRevision = overview.variant?.revision ?? null;
      this.fillRevisions(overview);
      this.draw(funnel, overview, layout);
      // a flow served as two variants is compared as such until the operator picks otherwise
      if (!this.ui.compare.value && !this.picked && overview.variant && overview.revisions.some((r) => r.revision === overview.variant!.revision)) {
        this.ui.compare.value = overview.variant.revision;
      }
      const compare = this.ui.compare.value;
      if (compare) {
        const first = revision || overview.current || '';
        const [a, b] = await Promise.all([this.api.get<Funnel>(`${base}/funnel${this.query(first)}`), this.api.get<Funnel>(`${base}/funnel${this.query(compare)}`)]);
        if (gen === this.generation) this.drawComparison(first, a, compare, b);
      } else {
        this.ui.comparison.replaceChildren(h('p', { class: 'muted' }, 'Choose a revision under “Compare with” to see two revisions side by side.'));
      }
      const t = this.tenants.find((x) => x.id === c.tenant);
      this.ui.status.textContent = `${t?.name ?? c.tenant}: ${funnel.sessions} session${funnel.sessions === 1 ? '' : 's'} ${this.ui.from.value || this.ui.to.value ? `from ${this.ui.from.value || 'the start'} to ${this.ui.to.value || 'today'}` : 'so far'}.`;
    } catch (err) {
      this.ui.status.textContent = `Could not load the funnel: ${this.onError(err)}`;
    }
  }

  private fillRevisions(o: Overview): void {
    for (const sel of [this.ui.revision, this.ui.compare]) {
      const keep = sel.value;
      const first = sel.options[0]!;
      sel.replaceChildren(first, ...o.revisions.map((r) => h('option', { value: r.revision }, `${r.revision.slice(0, 8)}${r.revision === o.current ? ' (current)' : ''} · ${r.sessions} sessions · ${r.firstDay}${r.lastDay !== r.firstDay ? ` to ${r.lastDay}` : ''}`)));
      sel.value = o.revisions.some((r) => r.revision === keep) ? keep : '';
    }
  }

  private labelOf(layout: GraphLayout | null, id: string, key: string | null): string {
    const n = layout?.nodes.find((x) => x.id === id);
    if (n && n.label && n.label !== n.id) return n.label;
    return key ?? id;
  }

  private draw(f: Funnel, o: Overview, layout: GraphLayout | null): void {
    // totals, in words a business reads
    const card = (value: string, label: string, note = '') => h('div', { class: 'card' }, h('strong', {}, value), h('span', {}, label), ...(note ? [h('small', {}, note)] : []));
    this.ui.cards.replaceChildren(
      card(String(f.sessions), 'conversations started'),
      card(pct(f.completed, f.sessions), 'completed', `${f.completed} of ${f.sessions}`),
      card(String(f.abandoned), 'left before the end', pct(f.abandoned, f.sessions)),
      card(String(f.escalated), 'handed to a person', pct(f.escalated, f.sessions)),
      card(duration(f.median_completion_s), 'typical time to complete', `9 in 10 within ${duration(f.p90_completion_s)}`),
    );

    const reached = f.nodes.filter((n) => n.reached > 0);
    const worst = reached.filter((n) => n.dropped > 0).sort((a, b) => b.dropped - a.dropped || b.dropped / b.reached - a.dropped / a.reached)[0];
    this.ui.worst.textContent = worst
      ? `Biggest drop-off: “${this.labelOf(layout, worst.id, worst.key)}” — ${worst.dropped} of the ${worst.reached} visitors who reached it left there (${pct(worst.dropped, worst.reached)}).`
      : f.sessions ? 'No visitor has left part-way in this period.' : '';

    if (layout) {
      if (this.map.drawn !== `${layout.flow.id}@${layout.flow.revision}`) this.map.draw(layout);
      const nodes: MapOverlay['nodes'] = new Map(reached.map((n) => {
        const share = n.dropped / n.reached;
        return [n.id, { text: n.dropped ? `${n.reached} reached · ${n.dropped} left` : `${n.reached} reached`, tone: share >= 0.25 ? 'bad' : share > 0 ? 'warn' : 'ok' }];
      }));
      const edges = new Map(layout.edges.map((e) => [e.id, o.edges[e.id] ?? 0] as const).filter(([, n]) => n > 0));
      this.map.overlay({ nodes, edges, worst: worst ? { id: worst.id, text: `Biggest drop-off: ${worst.dropped} of ${worst.reached} left here` } : null });
      if (worst) this.map.showNode(worst.id);
    } else {
      this.map.clear();
    }

    const types = new Map(layout?.nodes.map((n) => [n.id, n.type]) ?? []);
    const steps: StepBar[] = f.nodes
      .filter((n) => n.reached > 0 && (n.key !== null || types.get(n.id) === 'terminal'))
      // the order visitors meet them: most reached first (a stable sort keeps the flow's order among equals), endings last
      .sort((a, b) => Number(types.get(a.id) === 'terminal') - Number(types.get(b.id) === 'terminal') || b.reached - a.reached)
      .map((n) => ({ label: types.get(n.id) === 'terminal' ? `End: ${this.labelOf(layout, n.id, n.key)}` : this.labelOf(layout, n.id, n.key), reached: n.reached, dropped: n.dropped, escalated: n.escalated, worst: n.id === worst?.id }));
    drawSteps(this.ui.chart, f.sessions, steps);

    const asked = f.nodes.filter((n) => n.reasked > 0).sort((a, b) => b.reasked - a.reasked).slice(0, 8);
    this.ui.reasons.replaceChildren(...(asked.length
      ? asked.map((n) => h('tr', {}, h('td', {}, this.labelOf(layout, n.id, n.key)), h('td', {}, `${n.reasked} of ${n.reached}`),
          h('td', {}, h('ul', { class: 'reasons' }, ...n.reasons.map((r) => h('li', {}, `“${r.reason}” `, h('small', {}, `× ${r.count}`)))))))
      : [h('tr', {}, h('td', { colspan: '3', class: 'muted' }, 'No question had to be asked again.'))]));

    drawDays(this.ui.days, o.days);
  }

  private drawComparison(ra: string, a: Funnel, rb: string, b: Funnel): void {
    const c = compareRates(a, b);
    const row = (label: string, x: string, y: string) => h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, x), h('td', {}, y));
    const name = (r: string) => `Revision ${r.slice(0, 8)}${r === this.variantRevision ? ' (variant)' : ''}`;
    this.ui.comparison.replaceChildren(
      h('table', { class: 'compare' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), h('th', { scope: 'col' }, name(ra)), h('th', { scope: 'col' }, name(rb)))),
        h('tbody', {},
          row('Conversations', String(a.sessions), String(b.sessions)),
          row('Completed', `${a.completed} (${pct(a.completed, a.sessions)})`, `${b.completed} (${pct(b.completed, b.sessions)})`),
          row('Left before the end', `${a.abandoned} (${pct(a.abandoned, a.sessions)})`, `${b.abandoned} (${pct(b.abandoned, b.sessions)})`),
          row('Handed to a person', `${a.escalated} (${pct(a.escalated, a.sessions)})`, `${b.escalated} (${pct(b.escalated, b.sessions)})`),
          row('Typical time to complete', duration(a.median_completion_s), duration(b.median_completion_s)))),
      h('p', { class: c.sure !== null && c.sure >= 0.95 ? 'verdict sure' : 'verdict' }, c.words));
  }

  private async csv(): Promise<void> {
    const c = this.chosen();
    if (!this.api || !c) return;
    const q = this.query(this.ui.revision.value);
    try {
      const { blob } = await this.api.blob(`/tenants/${encodeURIComponent(c.tenant)}/flows/${encodeURIComponent(c.flow)}/funnel${q ? `${q}&` : '?'}format=csv`);
      download(blob, `${c.tenant}-${c.flow}-funnel.csv`);
    } catch (err) {
      this.ui.status.textContent = `Download failed: ${this.onError(err)}`;
    }
  }

  private visitorQuery(): string | null {
    const v = this.ui.visitorValue.value.trim();
    const c = this.chosen();
    if (!v || !c) return null;
    return `/tenants/${encodeURIComponent(c.tenant)}/visitors?${v.includes('@') ? 'email' : 'phone'}=${encodeURIComponent(v)}`;
  }

  private async findVisitor(): Promise<void> {
    const path = this.visitorQuery();
    this.visitor = null;
    this.ui.visitorDownload.disabled = true;
    this.ui.visitorErase.disabled = true;
    this.ui.visitorSessions.replaceChildren();
    if (!this.api || !path) {
      this.ui.visitorStatus.textContent = 'Enter an email address or a phone number.';
      return;
    }
    try {
      const data = await this.api.get<VisitorExport>(path);
      this.visitor = { query: path, data };
      this.ui.visitorStatus.textContent = data.count ? `${data.count} conversation${data.count === 1 ? '' : 's'} found.` : 'No conversation of this visitor.';
      this.ui.visitorSessions.replaceChildren(...data.sessions.map((s) => h('li', {}, h('code', {}, s.id), ` — ${s.flowId}, ${s.status}, started ${s.createdAt.slice(0, 16).replace('T', ' ')}, ${Object.keys(s.answers).length} answers`)));
      this.ui.visitorDownload.disabled = data.count === 0;
      this.ui.visitorErase.disabled = data.count === 0;
    } catch (err) {
      this.ui.visitorStatus.textContent = `Search failed: ${this.onError(err)}`;
    }
  }

  private async eraseVisitor(): Promise<void> {
    if (!this.api || !this.visitor) return;
    const n = this.visitor.data.count;
    if (!confirm(`Erase ${n} conversation${n === 1 ? '' : 's'} of this visitor — answers, transcripts and undelivered webhooks? This cannot be undone.`)) return;
    try {
      const r = await this.api.delete<{ erased: number }>(this.visitor.query);
      this.ui.visitorStatus.textContent = `Erased ${r.erased} conversation${r.erased === 1 ? '' : 's'}. The funnel keeps them only as numbers.`;
      this.visitor = null;
      this.ui.visitorSessions.replaceChildren();
      this.ui.visitorDownload.disabled = true;
      this.ui.visitorErase.disabled = true;
    } catch (err) {
      this.ui.visitorStatus.textContent = `Erase failed: ${this.onError(err)}`;
    }
  }
}
