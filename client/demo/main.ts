// The demo page (served at /): pick a business and a flow, chat in the
// widget, watch the answers arrive, copy the embed snippet. It talks to the
// widget only through its public API (window.Questline), installed here with
// the same queue stub a website pastes, before /widget.js has loaded.

import type { QuestlineApi, WidgetOptions } from '../widget/index.ts';
import { STUB } from '../widget/stub.ts';
import { mountPathOf } from '../widget/mount-base.ts';

/** The path Questline is mounted under ('' at the site root), from this script's own URL. */
const BASE = mountPathOf(document.currentScript instanceof HTMLScriptElement ? document.currentScript.src : undefined, 'demo.js');

interface DemoTenant {
  id: string;
  name: string;
  /** Public widget keys are meant to be in pages. */
  key: string;
}

/** The demo tenants in flows/tenants/. */
const TENANTS: DemoTenant[] = [
  { id: 'acme', name: 'Acme Lighting', key: 'pk_acme_demo' },
  { id: 'northside-clinic', name: 'Northside Community Clinic', key: 'pk_northside_demo' },
];

type Mode = 'bubble' | 'inline';
interface Choice {
  tenant: string;
  flow: string;
  mode: Mode;
  /** The visitor's language (the widget's `locale`): a flow with `locales` speaks it, others their default. */
  locale: string;
}

/** The same stub, in TypeScript (this page's CSP allows no inline script). */
function installStub(): QuestlineApi {
  const w = window as unknown as { Questline?: Record<string, unknown> & { q?: unknown[] } };
  const Q = (w.Questline = w.Questline || { q: [] });
  for (const m of 'init open close toggle restart reset destroy on'.split(' ')) {
    Q[m] = Q[m] || function (...args: unknown[]) {
      (Q.q = Q.q || []).push([m, args]);
    };
  }
  return Q as unknown as QuestlineApi;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const ui = {
  tenant: $<HTMLSelectElement>('tenant'),
  flow: $<HTMLSelectElement>('flow'),
  locale: $<HTMLSelectElement>('locale'),
  modes: Array.from(document.querySelectorAll<HTMLInputElement>('input[name="mode"]')),
  newBtn: $<HTMLButtonElement>('new'),
  note: $<HTMLParagraphElement>('note'),
  status: $<HTMLSpanElement>('status'),
  progress: $<HTMLElement>('progress'),
  session: $<HTMLElement>('session'),
  answers: $<HTMLDListElement>('answers'),
  answersEmpty: $<HTMLParagraphElement>('answers-empty'),
  bubbleNote: $<HTMLDivElement>('bubble-note'),
  open: $<HTMLButtonElement>('open'),
  slot: $<HTMLDivElement>('chat-slot'),
  snippet: $<HTMLElement>('snippet'),
  snippetQueue: $<HTMLElement>('snippet-queue'),
  copy: $<HTMLButtonElement>('copy'),
  copyQueue: $<HTMLButtonElement>('copy-queue'),
};

const Q = installStub();
const CHOICE_KEY = 'questline.demo.choice';
let session: { sessionId: string; token: string } | null = null;
let answersTimer: ReturnType<typeof setTimeout> | undefined;
let flowsRequest = 0;

function loadChoice(): Choice {
  try {
    const c = JSON.parse(localStorage.getItem(CHOICE_KEY) ?? 'null') as Partial<Choice> | null;
    if (c && TENANTS.some((t) => t.id === c.tenant) && typeof c.flow === 'string') {
      return { tenant: c.tenant!, flow: c.flow, mode: c.mode === 'inline' ? 'inline' : 'bubble', locale: c.locale === 'de' ? 'de' : 'en' };
    }
  } catch {
    // start from the defaults
  }
  return { tenant: TENANTS[0]!.id, flow: 'flow.sales', mode: 'bubble', locale: 'en' };
}

const choice = loadChoice();
const saveChoice = () => localStorage.setItem(CHOICE_KEY, JSON.stringify(choice));
const tenantOf = (id: string) => TENANTS.find((t) => t.id === id) ?? TENANTS[0]!;

/** The flows a tenant offers (GET /api/v1/tenants/:tenant/flows with its public key). */
async function fillFlows(): Promise<void> {
  const tenant = tenantOf(choice.tenant);
  const request = ++flowsRequest;
  ui.flow.replaceChildren(new Option('Loading…', ''));
  ui.flow.disabled = true;
  try {
    const res = await fetch(`${BASE}/api/v1/tenants/${encodeURIComponent(tenant.id)}/flows`, { headers: { 'X-Questline-Key': tenant.key } });
    if (!res.ok) throw new Error(`the server answered ${res.status}`);
    const body = (await res.json()) as { flows: Array<{ id: string; label?: string | null; available: boolean }> };
    if (request !== flowsRequest) return;
    const usable = body.flows.filter((f) => f.available);
    ui.flow.replaceChildren(...usable.map((f) => new Option(f.label ? `${f.label} (${f.id})` : f.id, f.id)));
    if (!usable.some((f) => f.id === choice.flow)) choice.flow = usable[0]?.id ?? '';
    ui.flow.value = choice.flow;
    ui.flow.disabled = false;
    ui.note.textContent = usable.length ? '' : 'This business offers no flow that compiles on this server.';
  } catch (err) {
    if (request !== flowsRequest) return;
    ui.flow.replaceChildren(new Option(choice.flow, choice.flow));
    ui.note.textContent = `Could not list the flows: ${err instanceof Error ? err.message : String(err)}`;
  }
}

function widgetOptions(): Partial<WidgetOptions> {
  const tenant = tenantOf(choice.tenant);
  return {
    key: tenant.key,
    flow: choice.flow,
    title: tenant.name,
    mode: choice.mode,
    locale: choice.locale,
    ...(choice.mode === 'inline' ? { target: '#chat-slot' } : {}),
  };
}

/** (Re)creates the widget for the current choice. */
function mountWidget(): void {
  if (!choice.flow) return;
  session = null;
  showSession();
  showAnswers({});
  ui.status.textContent = 'not started';
  ui.status.className = 'badge';
  ui.progress.textContent = '—';
  const inline = choice.mode === 'inline';
  ui.slot.hidden = !inline;
  ui.bubbleNote.hidden = inline;
  Q.init(widgetOptions());
  showSnippets();
}

function showSnippets(): void {
  const tenant = tenantOf(choice.tenant);
  const origin = `${location.origin}${BASE}`;
  const inline = choice.mode === 'inline';
  // English is what a page gets without a locale, so only another language is spelled out
  const locale = choice.locale === 'en' ? undefined : choice.locale;
  const attrs = `data-key="${tenant.key}" data-flow="${choice.flow}"${locale ? ` data-locale="${locale}"` : ''}${inline ? ' data-mode="inline" data-target="#chat"' : ''}`;
  ui.snippet.textContent = `${inline ? '<div id="chat"></div>\n' : ''}<script async src="${origin}/widget.js"\n        ${attrs}></script>`;
  const init = JSON.stringify({ key: tenant.key, flow: choice.flow, ...(locale ? { locale } : {}), ...(inline ? { mode: 'inline', target: '#chat' } : {}) });
  ui.snippetQueue.textContent = `<script>\n  ${STUB}\n  Questline.init(${init});\n  // Questline.open(), .close(), .restart(), .on('end', fn) work from here on\n</script>\n<script async src="${origin}/widget.js"></script>`;
}

function showSession(): void {
  ui.session.textContent = session ? session.sessionId : '—';
}

const display = (v: unknown): string =>
  v === null ? 'skipped' : Array.isArray(v) ? v.map(display).join(', ') : typeof v === 'object' ? JSON.stringify(v) : String(v);

function showAnswers(answers: Record<string, unknown>): void {
  const entries = Object.entries(answers);
  const rows: HTMLElement[] = [];
  for (const [key, value] of entries) {
    const dt = document.createElement('dt');
    dt.textContent = key;
    const dd = document.createElement('dd');
    dd.textContent = display(value);
    if (value === null) dd.className = 'skipped';
    rows.push(dt, dd);
  }
  ui.answers.replaceChildren(...rows);
  ui.answersEmpty.hidden = entries.length > 0;
}

/** The answers come from the session's REST view, which the session token opens. */
function refreshAnswers(): void {
  clearTimeout(answersTimer);
  answersTimer = setTimeout(async () => {
    const s = session;
    if (!s) return;
    try {
      const res = await fetch(`${BASE}/api/v1/sessions/${encodeURIComponent(s.sessionId)}?after=999999999`, { headers: { authorization: `Bearer ${s.token}` } });
      if (!res.ok || s !== session) return;
      const view = (await res.json()) as { answers?: Record<string, unknown> };
      showAnswers(view.answers ?? {});
    } catch {
      // the next change tries again
    }
  }, 120);
}

Q.on('session', (detail) => {
  session = (detail as { sessionId: string; token: string } | null) ?? null;
  showSession();
  if (!session) showAnswers({});
  refreshAnswers();
});
Q.on('state', (detail) => {
  const s = detail as { status: string; progress: { answered: number; total: number } };
  ui.status.textContent = s.status;
  ui.status.className = `badge ${s.status}`;
  ui.progress.textContent = s.status === 'completed' ? 'all answered' : `${s.progress.answered} of ${s.progress.total} answered`;
  refreshAnswers();
});

async function copy(button: HTMLButtonElement, text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    // no clipboard permission: select the text so Ctrl+C works
    const range = document.createRange();
    range.selectNodeContents(button.parentElement!.querySelector('code')!);
    const sel = window.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
    button.textContent = 'Press Ctrl+C';
  }
  setTimeout(() => (button.textContent = 'Copy'), 2000);
}

ui.tenant.replaceChildren(...TENANTS.map((t) => new Option(t.name, t.id)));
ui.tenant.value = choice.tenant;
for (const r of ui.modes) r.checked = r.value === choice.mode;
ui.locale.value = choice.locale;

ui.tenant.addEventListener('change', async () => {
  choice.tenant = ui.tenant.value;
  await fillFlows();
  saveChoice();
  mountWidget();
});
ui.flow.addEventListener('change', () => {
  choice.flow = ui.flow.value;
  saveChoice();
  mountWidget();
});
ui.locale.addEventListener('change', () => {
  choice.locale = ui.locale.value === 'de' ? 'de' : 'en';
  saveChoice();
  mountWidget();
  Q.reset(); // a conversation in progress keeps its language: start one in the new one
});
for (const r of ui.modes) {
  r.addEventListener('change', () => {
    if (!r.checked) return;
    choice.mode = r.value === 'inline' ? 'inline' : 'bubble';
    saveChoice();
    mountWidget();
  });
}
ui.newBtn.addEventListener('click', () => {
  Q.reset();
  if (choice.mode === 'bubble') Q.open();
});
ui.open.addEventListener('click', () => Q.open());
ui.copy.addEventListener('click', () => void copy(ui.copy, ui.snippet.textContent ?? ''));
ui.copyQueue.addEventListener('click', () => void copy(ui.copyQueue, ui.snippetQueue.textContent ?? ''));

void fillFlows().then(mountWidget);
