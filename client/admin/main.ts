// The operator console (issue 8), bundled as /admin.js for /admin.
//
// Sessions list (filters, auto-refresh) → a session: transcript, answers with
// provenance, the live flow map, replies, hand-back, interrupt decisions and
// exports. REST (`/api/v1/admin`, key in X-Questline-Admin) for reads; the
// /operator socket (key in the handshake auth) to watch a session's room and
// to act. Every piece of text from the server is set as text, never as HTML.

import { io, type Socket } from 'socket.io-client';
import { AdminApi, ApiError } from './api.ts';
import { mountPathOf } from '../widget/mount-base.ts';
import { FlowMap } from './flow-map.ts';
import { InsightsView } from './insights.ts';
import { OperatorAlerts } from './alerts.ts';
import type { OperatorAck, SessionStateEvent, Status, WireMessage } from '../../server/protocol/index.ts';
// run-time values from the zod-free files, not index.ts: zod stays out of the bundle
import { MESSAGE_EVENTS } from '../../server/protocol/roles.ts';
import { isEnded, urgentFirst } from '../../server/protocol/statuses.ts';
import { LIMITS } from '../../server/protocol/limits.ts';
import type { GraphLayout, SessionDetail, SessionList, SessionRow, TenantInfo } from './types.ts';

/** The path Questline is mounted under ('' at the site root), from this script's own URL. */
const BASE = mountPathOf(document.currentScript instanceof HTMLScriptElement ? document.currentScript.src : undefined, 'admin.js');
const KEY_STORAGE = 'questline.adminKey';
const LIST_EVERY_MS = 5_000;

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`#${id} is missing from the page`);
  return e as T;
};

/** An element with text children (never HTML). */
function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Array<Node | string | null>): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) if (c !== null) e.append(c);
  return e;
}

/** Sets a live region's text only when it changes, so screen readers do not repeat it on every refresh. */
function say(e: HTMLElement, text: string): void {
  if (e.textContent !== text) e.textContent = text;
}

const ui = {
  connection: $('connection'),
  signOut: $<HTMLButtonElement>('sign-out'),
  signIn: $('sign-in'),
  signInForm: $<HTMLFormElement>('sign-in-form'),
  keyInput: $<HTMLInputElement>('admin-key'),
  signInError: $('sign-in-error'),
  console: $('console'),
  tenant: $<HTMLSelectElement>('filter-tenant'),
  status: $<HTMLSelectElement>('filter-status'),
  flow: $<HTMLSelectElement>('filter-flow'),
  search: $<HTMLInputElement>('filter-q'),
  refresh: $<HTMLButtonElement>('refresh'),
  auto: $<HTMLInputElement>('auto-refresh'),
  listStatus: $('list-status'),
  escalated: $('escalated-count'),
  rows: $('sessions-body'),
  exportTenant: $<HTMLSelectElement>('export-tenant'),
  exportJson: $<HTMLButtonElement>('export-json'),
  exportCsv: $<HTMLButtonElement>('export-csv'),
  exportStatus: $('export-status'),
  session: $('session'),
  sessionTitle: $('session-title'),
  sessionMeta: $('session-meta'),
  sessionEmpty: $('session-empty'),
  sessionBody: $('session-body'),
  alert: $('session-alert'),
  map: $('map'),
  mapCaption: $('map-caption'),
  transcript: $('transcript'),
  transcriptBox: $('transcript-box'),
  replyForm: $<HTMLFormElement>('reply-form'),
  replyText: $<HTMLTextAreaElement>('reply-text'),
  handBackForm: $<HTMLFormElement>('hand-back-form'),
  handBackNode: $<HTMLSelectElement>('hand-back-node'),
  closeForm: $<HTMLFormElement>('close-form'),
  interrupt: $('interrupt'),
  decisionForm: $<HTMLFormElement>('decision-form'),
  decisionFields: $('decision-fields'),
  reject: $<HTMLButtonElement>('reject'),
  actionStatus: $('action-status'),
  answers: $('answers-body'),
};

const map = new FlowMap(ui.map);
const insights = new InsightsView((err) => guard(err));
const alerts = new OperatorAlerts($<HTMLInputElement>('alerts'), $('alerts-status'), (id) => {
  location.hash = `#session=${id}`;
});

/** Shows the Sessions or the Insights view (`#insights`), marking the nav link of the one shown. */
function route(): void {
  const onInsights = location.hash === '#insights';
  ui.console.hidden = !api || onInsights;
  $('insights').hidden = !api || !onInsights;
  $('view-sessions').toggleAttribute('aria-current', !onInsights);
  $('view-insights').toggleAttribute('aria-current', onInsights);
  if (onInsights) $('view-insights').setAttribute('aria-current', 'page');
  else $('view-sessions').setAttribute('aria-current', 'page');
  if (api && onInsights) void insights.show();
}

interface Open {
  id: string;
  detail: SessionDetail | null;
  /** Transcript ids on screen. */
  shown: Set<number>;
  /** A detail refresh is queued. */
  queued: ReturnType<typeof setTimeout> | null;
  /** Bumped on every refresh so a slow, older answer never overwrites a newer one. */
  generation: number;
}

let api: AdminApi | null = null;
let socket: Socket | null = null;
let tenants: TenantInfo[] = [];
let rows: SessionRow[] = [];
let open: Open | null = null;
let listTimer: ReturnType<typeof setInterval> | null = null;
let tickTimer: ReturnType<typeof setInterval> | null = null;
const layouts = new Map<string, GraphLayout>();

// --- signing in -------------------------------------------------------------

function storedKey(): string | null {
  try {
    return sessionStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}

async function signIn(key: string): Promise<void> {
  const candidate = new AdminApi(key, `${BASE}/api/v1/admin`);
  let list: { tenants: TenantInfo[] };
  try {
    list = await candidate.get<{ tenants: TenantInfo[] }>('/tenants');
  } catch (err) {
    const e = err as ApiError;
    ui.signInError.textContent = e.code === 'admin_only'
      ? `The server refused this key: ${e.message}.`
      : e.code === 'rate_limited' ? `Too many wrong keys: ${e.message}.` : `Cannot sign in: ${e.message}.`;
    showSignIn();
    return;
  }
  try {
    sessionStorage.setItem(KEY_STORAGE, key);
  } catch {
    // storage off: the key lives only in this page
  }
  api = candidate;
  tenants = list.tenants;
  ui.keyInput.value = '';
  ui.signInError.textContent = '';
  ui.signIn.hidden = true;
  ui.console.hidden = false;
  ui.signOut.hidden = false;
  fillFilters();
  insights.start(candidate, tenants);
  alerts.start(candidate);
  $('alerts-toggle').hidden = false;
  $('views').hidden = false;
  route();
  connectSocket(key);
  await refreshList();
  listTimer = setInterval(() => {
    if (ui.auto.checked && !document.hidden) void refreshList();
  }, LIST_EVERY_MS);
  tickTimer = setInterval(tick, 1_000);
  const fromHash = /^#session=([A-Za-z0-9_-]{8,64})$/.exec(location.hash)?.[1];
  if (fromHash) void openSession(fromHash);
}

function signOut(message = ''): void {
  try {
    sessionStorage.removeItem(KEY_STORAGE);
  } catch {
    // nothing stored
  }
  api = null;
  socket?.close();
  socket = null;
  if (listTimer) clearInterval(listTimer);
  listTimer = null;
  if (tickTimer) clearInterval(tickTimer);
  tickTimer = null;
  closeSession();
  insights.stop();
  alerts.stop();
  $('alerts-toggle').hidden = true;
  $('views').hidden = true;
  $('insights').hidden = true;
  ui.console.hidden = true;
  ui.signOut.hidden = true;
  ui.signInError.textContent = message;
  setConnection('Signed out', '');
  showSignIn();
}

function showSignIn(): void {
  ui.signIn.hidden = false;
  ui.console.hidden = true;
  ui.keyInput.focus();
}

/** A refused key anywhere signs the operator out. */
function guard(err: unknown): string {
  if (err instanceof ApiError && err.code === 'admin_only') {
    signOut(`Signed out: ${err.message}.`);
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

// --- the /operator socket ---------------------------------------------------

function setConnection(text: string, cls: '' | 'live' | 'down'): void {
  ui.connection.textContent = text;
  ui.connection.className = `connection ${cls}`;
}

function connectSocket(key: string): void {
  const s = io('/operator', { path: `${BASE}/socket.io`, auth: { adminKey: key }, reconnectionDelayMax: 5_000 });
  socket = s;
  setConnection('Connecting…', '');
  s.on('connect', () => {
    setConnection('Live', 'live');
    if (open) void join(open.id);
  });
  s.on('disconnect', () => setConnection('Reconnecting…', 'down'));
  s.on('connect_error', (err: Error & { data?: { code?: string; message?: string } }) => {
    if (err.data?.code === 'admin_only') signOut(`Signed out: ${err.data.message ?? 'the key was refused'}.`);
    else setConnection(`Offline (${err.data?.message ?? err.message}); retrying`, 'down');
  });
  const onMessage = (m: WireMessage) => {
    if (!open || !open.detail) return;
    appendMessages([m]);
    queueRefresh();
    // the open session's row shows the new line at once (the list's own refresh brings the rest)
    const row = rows.find((r) => r.id === open!.id);
    if (row && (m.role !== 'bot' || !row.lastMessage || row.lastMessage.role === 'bot')) {
      row.lastMessage = { role: m.role, text: m.text.length > LIMITS.previewChars ? `${m.text.slice(0, LIMITS.previewChars - 1)}…` : m.text, at: m.at };
      renderRows();
    }
  };
  for (const event of Object.values(MESSAGE_EVENTS)) s.on(event, onMessage);
  s.on('session:state', (st: SessionStateEvent) => {
    if (open?.id === st.sessionId) queueRefresh();
    const row = rows.find((r) => r.id === st.sessionId);
    if (row && (row.status !== st.status || row.nodeId !== st.nodeId)) {
      row.status = st.status;
      row.nodeId = st.nodeId;
      renderRows();
    }
  });
  s.on('session:end', (p: { sessionId: string }) => {
    if (open?.id === p.sessionId) queueRefresh();
  });
}

async function join(id: string): Promise<void> {
  if (!socket?.connected) return;
  const ack = (await socket.timeout(5_000).emitWithAck('operator:join', { sessionId: id }).catch(() => null)) as { ok: boolean } | null;
  if (ack?.ok && open?.id === id) queueRefresh();
}

async function leave(id: string): Promise<void> {
  if (!socket?.connected) return;
  await socket.timeout(5_000).emitWithAck('operator:leave', { sessionId: id }).catch(() => null);
}

// --- sessions list ----------------------------------------------------------

function option(value: string, label: string): HTMLOptionElement {
  const o = h('option', { value }, label);
  return o;
}

function fillFilters(): void {
  ui.tenant.replaceChildren(option('', 'All tenants'), ...tenants.map((t) => option(t.id, `${t.name} (${t.id})`)));
  ui.exportTenant.replaceChildren(...tenants.map((t) => option(t.id, `${t.name} (${t.id})`)));
  fillFlows();
}

function fillFlows(): void {
  const chosen = ui.flow.value;
  const from = ui.tenant.value ? tenants.filter((t) => t.id === ui.tenant.value) : tenants;
  const flows = [...new Map(from.flatMap((t) => t.flows).map((f) => [f.id, f])).values()];
  ui.flow.replaceChildren(option('', 'Any flow'), ...flows.map((f) => option(f.id, f.label ? `${f.label} (${f.id})` : f.id)));
  if (flows.some((f) => f.id === chosen)) ui.flow.value = chosen;
}

/** A duration in plain words, short: "12 s", "4 min", "2 h 5 min", "3 d". */
function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
  return `${Math.floor(s / 86_400)} d`;
}

const relative = (iso: string): string => {
  const ms = Date.now() - Date.parse(iso);
  return Number.isFinite(ms) ? `${duration(ms)} ago` : iso;
};

/** A time that counts live (the list's ticker rewrites it every second): "waiting 4 min" or "4 min ago". */
function liveTime(iso: string, waiting: boolean): HTMLTimeElement {
  const t = h('time', { datetime: iso, title: new Date(iso).toLocaleString(), 'data-since': iso, 'data-waiting': waiting ? '1' : '' });
  t.textContent = timeText(t);
  return t;
}

function timeText(t: HTMLElement): string {
  const iso = t.dataset.since ?? '';
  const ms = Date.now() - Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  return t.dataset.waiting ? `waiting ${duration(ms)}` : `${duration(ms)} ago`;
}

/** Rewrites every live time in the list (not a live region: screen readers are not told each second). */
function tick(): void {
  for (const t of Array.from(ui.rows.querySelectorAll<HTMLElement>('time[data-since]'))) {
    const text = timeText(t);
    if (t.textContent !== text) t.textContent = text;
  }
}

function statusBadge(status: Status): HTMLElement {
  return h('span', { class: `status status-${status}` }, status);
}

async function refreshList(): Promise<void> {
  if (!api) return;
  const q = new URLSearchParams({ limit: '100' });
  if (ui.tenant.value) q.set('tenant', ui.tenant.value);
  if (ui.status.value) q.set('status', ui.status.value);
  if (ui.flow.value) q.set('flow', ui.flow.value);
  const search = ui.search.value.trim();
  if (search) q.set('q', search);
  try {
    const list = await api.get<SessionList>(`/sessions?${q}`);
    if (search !== ui.search.value.trim()) return; // the search changed meanwhile: its own refresh follows
    rows = list.sessions;
    const n = `${rows.length} session${rows.length === 1 ? '' : 's'}`;
    ui.listStatus.textContent = search
      ? `${n} match${rows.length === 1 ? 'es' : ''} “${search}”${list.search && !list.search.complete ? ' (searched the newest sessions only)' : ''} · updated ${new Date().toLocaleTimeString()}`
      : `${n} · updated ${new Date().toLocaleTimeString()}`;
    renderRows();
  } catch (err) {
    ui.listStatus.textContent = `Could not load sessions: ${guard(err)}`;
  }
}

/** The tenant's name, else its id. */
function tenantName(id: string): string {
  return tenants.find((t) => t.id === id)?.name ?? id;
}

/** The flow's label as the tenant serves it, else its id. */
function flowName(tenant: string, flowId: string): string {
  return tenants.find((t) => t.id === tenant)?.flows.find((f) => f.id === flowId)?.label ?? flowId;
}

const WHO: Record<string, string> = { bot: 'Bot', user: 'Visitor', operator: 'Operator' };

/** The list's order for the person answering: the server's (admin-views `rowOrder`), kept when a live event changes a row. */
function byWait(a: SessionRow, b: SessionRow): number {
  const group = (r: SessionRow) => (urgentFirst(r) && !r.closed ? 0 : r.unanswered ? 1 : r.waitingSince ? 2 : 3);
  const wait = (r: SessionRow) => r.waitingSince ?? '';
  return group(a) - group(b)
    || (group(a) < 3 && wait(a) !== wait(b) ? (wait(a) < wait(b) ? -1 : 1) : 0)
    || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id.localeCompare(b.id));
}

function renderRows(): void {
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.session : undefined;
  const waiting = rows.filter((r) => (r.status === 'escalated' && !r.operator && !r.closed) || r.status === 'waiting').length;
  say(ui.escalated, waiting ? `${waiting} need${waiting === 1 ? 's' : ''} a person` : '');
  document.title = `${waiting ? `(${waiting}) ` : ''}Questline operator console`;
  // urgent sessions (a red flag, a hazard) no operator has taken yet first, then visitors waiting for a person's reply, the longest waiting on top
  const shown = [...rows].sort(byWait);
  ui.rows.replaceChildren(...shown.map((r) => {
    const label = r.visitor.name ?? r.visitor.contact ?? 'Anonymous visitor';
    // the accessible name holds the visible text (who, and the id) with words around it
    const button = h('button', { type: 'button', class: 'open', 'data-session': r.id },
      h('span', { class: 'visually-hidden' }, 'Open '),
      h('span', { class: `who-name${r.visitor.name || r.visitor.contact ? '' : ' anonymous'}` }, label),
      h('span', { class: 'visually-hidden' }, ', session '),
      h('span', { class: 'sid' }, r.id),
      h('span', { class: 'visually-hidden' }, ` (${r.status})`));
    button.addEventListener('click', () => void openSession(r.id));
    const last = r.lastMessage;
    const visitor = h('td', { class: 'visitor' }, button,
      r.visitor.name && r.visitor.contact ? h('span', { class: 'contact' }, r.visitor.contact) : null,
      last ? h('span', { class: `last last-${last.role}`, title: last.text }, h('span', { class: 'last-who' }, `${WHO[last.role] ?? last.role}: `), last.text) : null);
    const status = h('td', {}, statusBadge(r.status), r.closed ? h('span', { class: 'closed' }, 'closed') : null, r.operator ? h('span', { class: 'held' }, 'operator holds it') : null,
      r.unanswered ? h('span', { class: 'unanswered', title: r.unanswered.since }, `${r.unanswered.count} unanswered`) : null,
      r.urgent ? h('span', { class: 'urgent' }, `Urgent: ${r.urgent.reason}`) : null,
      r.preview ? h('span', { class: 'preview', title: 'A Studio preview of a draft: never delivered or counted' }, 'Preview') : null);
    const tr = h('tr', { class: [open?.id === r.id ? 'selected' : '', r.urgent ? 'urgent-row' : ''].filter(Boolean).join(' '), 'data-row': r.id },
      visitor,
      status,
      h('td', { class: `wait${r.waitingSince ? ' waiting' : ''}` }, r.waitingSince ? liveTime(r.waitingSince, true) : liveTime(r.updatedAt, false)),
      localeCell(r.locale),
      h('td', { class: 'flow', title: `${flowName(r.tenant, r.flowId)} (${r.flowId}) · ${r.tenant}${r.nodeId ? ` · at ${r.nodeId}` : ''}` },
        h('span', { class: 'flow-name' }, flowName(r.tenant, r.flowId)), h('span', { class: 'where' }, tenantName(r.tenant))));
    if (open?.id === r.id) tr.setAttribute('aria-current', 'true');
    return tr;
  }));
  if (!rows.length) ui.rows.append(h('tr', {}, h('td', { colspan: '5', class: 'muted' }, ui.search.value.trim() ? 'No session matches this search.' : 'No sessions match these filters.')));
  if (focused) (ui.rows.querySelector(`button[data-session="${CSS.escape(focused)}"]`) as HTMLElement | null)?.focus();
}

/** The language column of a session row: its locale tag, with the language's name as a tooltip. */
function localeCell(locale: string | undefined): HTMLElement {
  return locale ? h('td', { class: 'locale', title: languageName(locale) }, h('code', { lang: 'en' }, locale)) : h('td', { class: 'locale muted' }, '—');
}

/** A locale's name in English (`de` → German), or the tag itself when the browser cannot name it. */
function languageName(locale: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(locale) ?? locale;
  } catch {
    return locale;
  }
}

// --- one session ------------------------------------------------------------

function closeSession(): void {
  if (open) void leave(open.id);
  if (open?.queued) clearTimeout(open.queued);
  open = null;
  map.clear();
  ui.sessionBody.hidden = true;
  ui.sessionEmpty.hidden = false;
  ui.sessionTitle.textContent = 'No session open';
  ui.sessionMeta.textContent = '';
}

async function openSession(id: string): Promise<void> {
  if (open?.id === id) {
    ui.session.focus();
    return;
  }
  if (open) {
    void leave(open.id);
    if (open.queued) clearTimeout(open.queued);
  }
  open = { id, detail: null, shown: new Set(), queued: null, generation: 0 };
  history.replaceState(null, '', `#session=${id}`);
  ui.transcript.replaceChildren();
  // a new session starts its hand-back picker at its own question, not at the last session's choice
  ui.handBackNode.replaceChildren();
  delete ui.handBackNode.dataset.chosen;
  ui.actionStatus.textContent = '';
  ui.replyText.value = '';
  ui.sessionTitle.textContent = `Session ${id}`;
  ui.sessionMeta.textContent = 'Loading…';
  ui.sessionEmpty.hidden = true;
  ui.sessionBody.hidden = false;
  renderRows();
  await refreshSession();
  void join(id);
  ui.session.focus();
}

function queueRefresh(): void {
  if (!open || open.queued) return;
  const o = open;
  o.queued = setTimeout(() => {
    o.queued = null;
    if (open === o) void refreshSession();
  }, 120);
}

async function refreshSession(): Promise<void> {
  if (!api || !open) return;
  const o = open;
  const generation = ++o.generation;
  let detail: SessionDetail;
  try {
    detail = await api.get<SessionDetail>(`/sessions/${encodeURIComponent(o.id)}`);
  } catch (err) {
    if (open === o) ui.sessionMeta.textContent = `Could not load the session: ${guard(err)}`;
    return;
  }
  if (open !== o || generation !== o.generation) return;
  const revision = `${detail.flow.id}@${detail.flow.revision}`;
  if (map.drawn !== revision) {
    let layout = layouts.get(revision);
    if (!layout) {
      try {
        layout = await api.get<GraphLayout>(`/sessions/${encodeURIComponent(o.id)}/graph`);
        layouts.set(revision, layout);
      } catch (err) {
        ui.mapCaption.textContent = `The flow map is not available: ${guard(err)}`;
      }
    }
    if (open !== o) return;
    if (layout) map.draw(layout);
  }
  o.detail = detail;
  renderSession(detail);
}

function renderSession(d: SessionDetail): void {
  const s = d.session;
  const status = d.state.status;
  ui.sessionTitle.textContent = `Session ${s.id}`;
  ui.sessionMeta.replaceChildren(statusBadge(status), d.state.closed ? h('span', { class: 'closed' }, 'closed') : '', ` ${s.tenant} · ${d.flow.label ?? d.flow.id} (${d.flow.id}, revision ${d.flow.revision})${d.state.locale ? ` · language ${d.state.locale} (${languageName(d.state.locale)})` : ''} · started ${new Date(s.createdAt).toLocaleString()}`);
  const held = s.operator !== undefined;
  ui.alert.className = `alert${status === 'escalated' ? ' escalated' : ''}`;
  const urgent = d.state.urgent ? `Urgent: ${d.state.urgent.reason}. ` : '';
  if (d.state.urgent) ui.alert.className += ' urgent';
  say(ui.alert, urgent + (
    held && s.operator?.unanswered ? `The visitor is waiting for your reply (${s.operator.unanswered.count} unanswered message${s.operator.unanswered.count === 1 ? '' : 's'}). The bot stays quiet until you hand it back.`
    : held ? 'You hold this conversation: the bot stays quiet until you hand it back.'
    : status === 'escalated' && s.unanswered ? `Escalated to a person${reasonOf(d)}. The visitor is waiting for a reply (${s.unanswered.count} unanswered message${s.unanswered.count === 1 ? '' : 's'}): reply to them, then hand the conversation back to the bot at a question.`
    : status === 'escalated' ? `Escalated to a person${reasonOf(d)}: reply to the visitor, then hand the conversation back to the bot at a question.`
    : status === 'waiting' ? `Waiting at an interrupt${d.interrupt?.role ? ` for a ${d.interrupt.role}` : ''}: ${d.interrupt?.prompt ? `${d.interrupt.prompt} ` : ''}approve (you may correct answers) or reject.${d.interrupt?.timeoutS ? ` Without a decision within ${d.interrupt.timeoutS} s it is rejected.` : ''}`
    : status === 'error' ? 'The conversation stopped with an error; you can reply and hand it back at a question.'
    : ''));

  // the map
  const summary = map.update(d.trail, d.state.nodeId);
  const where = summary.current ? `At ${summary.current.label === summary.current.id ? summary.current.id : `${summary.current.label} (${summary.current.id})`}` : 'Not at a node';
  const path = d.state.path.active ? ` · path ${d.state.path.active} (${d.state.path.locked ? 'locked' : 'tentative'})` : '';
  say(ui.mapCaption, `${where} · ${status}${path} · ${summary.visited} node${summary.visited === 1 ? '' : 's'} visited, ${summary.taken} edge${summary.taken === 1 ? '' : 's'} taken · ${d.state.progress.answered} of ${d.state.progress.total} answered`);

  // transcript: only new lines are added, so the log announces only them
  if (d.messages.some((m) => !open?.shown.has(m.id))) appendMessages(d.messages);

  // hand-back targets: keep the operator's choice across refreshes
  const chosen = ui.handBackNode.dataset.chosen ?? '';
  ui.handBackNode.replaceChildren(...d.handBack.map((t) => option(t.id, `${t.label} (${t.id})${t.answered ? ' · answered' : ''}${t.scope ? ` · in ${t.scope}` : ''}`)));
  // the operator's own choice first; else the question the bot was on (the server's `handBackAt`)
  const preferred = d.handBack.some((t) => t.id === chosen) ? chosen
    : d.handBackAt && d.handBack.some((t) => t.id === d.handBackAt) ? d.handBackAt
    : d.handBack.find((t) => !t.answered)?.id ?? d.handBack[0]?.id ?? '';
  ui.handBackNode.value = preferred;

  // an operator can still rescue an escalated or failed session (reply, hand back); the other endings are final
  const over = isEnded(status) && status !== 'escalated' && status !== 'error';
  // a closed escalation takes no more lines (the visitor was told it is closed); a hand-back reopens it
  setDisabled(ui.replyForm, over || d.state.closed === true);
  setDisabled(ui.handBackForm, over || d.handBack.length === 0);
  // closing: an open escalation, or a conversation an operator took over before it ended
  setDisabled(ui.closeForm, !((status === 'escalated' && !d.state.closed) || (held && (status === 'active' || status === 'waiting'))));

  // interrupts
  const waiting = status === 'waiting';
  if (waiting && ui.interrupt.hidden) renderDecisionFields(d);
  ui.interrupt.hidden = !waiting;

  renderAnswers(d);
}

/** Why the session escalated, from the last `escalated` event: " (user asked for a person)". */
function reasonOf(d: SessionDetail): string {
  const reason = [...(d.events ?? [])].reverse().find((e) => e.type === 'escalated')?.reason;
  return typeof reason === 'string' && reason ? ` (${reason})` : '';
}

function setDisabled(form: HTMLFormElement, off: boolean): void {
  for (const c of Array.from(form.elements)) (c as HTMLButtonElement).disabled = off;
}

function appendMessages(messages: readonly WireMessage[]): void {
  if (!open) return;
  const fresh = [...messages].filter((m) => !open!.shown.has(m.id)).sort((a, b) => a.id - b.id);
  if (!fresh.length) return;
  const last = Math.max(0, ...open.shown);
  // something older than what is on screen: redraw in order (first load, or a gap)
  if (fresh[0]!.id < last) {
    const all = [...(open.detail?.messages ?? []), ...messages];
    const byId = new Map(all.map((m) => [m.id, m]));
    open.shown.clear();
    ui.transcript.replaceChildren();
    appendMessages([...byId.values()]);
    return;
  }
  const box = ui.transcriptBox;
  const stick = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
  for (const m of fresh) {
    open.shown.add(m.id);
    const who = m.role === 'bot' ? 'Bot' : m.role === 'user' ? 'Visitor' : 'Operator';
    const li = h('li', { class: `msg msg-${m.role}${m.kind === 'invalid' ? ' msg-invalid' : ''}`, 'data-id': String(m.id) },
      h('span', { class: 'who' }, `${who} · ${new Date(m.at).toLocaleTimeString()}${m.nodeId ? ` · ${m.nodeId}` : ''}`),
      m.text);
    ui.transcript.append(li);
  }
  if (stick) box.scrollTop = box.scrollHeight;
}

const show = (v: unknown): string => (v === null ? 'skipped' : typeof v === 'string' ? v : JSON.stringify(v));

function renderAnswers(d: SessionDetail): void {
  if (!d.provenance.length) {
    ui.answers.replaceChildren(h('tr', {}, h('td', { colspan: '3', class: 'muted' }, 'No answers yet.')));
    return;
  }
  ui.answers.replaceChildren(...d.provenance.map((a) => {
    const from = [
      a.source === 'user' ? `extractor ${a.extractor ?? 'unknown'}` : a.source,
      a.confidence !== null ? `confidence ${a.confidence.toFixed(2)}` : null,
      `turn ${a.turn}`,
      a.validation === 'skipped' ? 'skipped' : null,
    ].filter(Boolean).join(' · ');
    return h('tr', { 'data-key': a.key },
      h('th', { scope: 'row' }, h('code', {}, a.key), a.nodeId ? h('span', { class: 'prov' }, ` ${a.nodeId}`) : null),
      h('td', { class: 'value' }, Array.isArray(a.value) ? a.value.map(show).join(', ') : show(a.value)),
      h('td', {}, h('span', { class: 'prov' }, from), a.utterance !== null ? h('span', { class: 'utterance' }, `“${a.utterance}”`) : null));
  }));
}

function renderDecisionFields(d: SessionDetail): void {
  ui.decisionFields.replaceChildren(...d.provenance.flatMap((a) => {
    const id = `fix-${a.key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const input = h('input', { id, type: 'text', 'data-key': a.key, 'data-original': show(a.value) });
    input.value = show(a.value);
    return [h('label', { for: id }, a.key), input];
  }));
  if (!d.provenance.length) ui.decisionFields.append(h('p', { class: 'muted' }, 'No answers to correct.'));
}

/** An edited value: JSON when it reads as a number, boolean, null or list; else the text. */
function parseValue(text: string): unknown {
  const t = text.trim();
  if (/^(-?\d+(\.\d+)?|true|false|null|\[.*\])$/s.test(t)) {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

// --- acting -----------------------------------------------------------------

/** Sends an operator action over the socket when it is up, else over REST. */
async function act(event: string, payload: Record<string, unknown>, rest: string, body: unknown): Promise<void> {
  if (!open || !api) return;
  const id = open.id;
  if (socket?.connected) {
    const ack = (await socket.timeout(10_000).emitWithAck(event, { sessionId: id, ...payload }).catch(() => null)) as OperatorAck | null;
    if (!ack) throw new Error('the server did not answer in time');
    if (!ack.ok) throw new ApiError(ack.error.code, ack.error.message, 0);
  } else {
    await api.post(`/sessions/${encodeURIComponent(id)}${rest}`, body);
  }
  queueRefresh();
  void refreshList();
}

function report(ok: boolean, text: string): void {
  ui.actionStatus.className = `action-status${ok ? ' ok' : ''}`;
  ui.actionStatus.textContent = text;
}

async function run(what: string, fn: () => Promise<void>, busy: HTMLElement[]): Promise<void> {
  for (const b of busy) (b as HTMLButtonElement).disabled = true;
  report(true, '');
  try {
    await fn();
    report(true, `${what}: done.`);
  } catch (err) {
    report(false, `${what} failed: ${guard(err)}`);
  } finally {
    for (const b of busy) (b as HTMLButtonElement).disabled = false;
    if (open?.detail) renderSession(open.detail);
  }
}

ui.replyForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const text = ui.replyText.value.trim();
  if (!text) {
    report(false, 'Write a reply first.');
    ui.replyText.focus();
    return;
  }
  void run('Reply', async () => {
    await act('operator:message', { text }, '/messages', { text });
    ui.replyText.value = '';
  }, Array.from(ui.replyForm.elements) as HTMLElement[]);
});

ui.replyText.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) ui.replyForm.requestSubmit();
});

// the operator's pick is kept across refreshes; until they pick, the picker follows the question the bot is on
ui.handBackNode.addEventListener('change', () => {
  ui.handBackNode.dataset.chosen = ui.handBackNode.value;
});

ui.handBackForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const nodeId = ui.handBackNode.value;
  if (!nodeId) return;
  // the visitor wrote and nobody answered: handing back now would leave them unanswered, so ask first
  const waiting = open?.detail?.session.operator?.unanswered ?? open?.detail?.session.unanswered;
  if (waiting && !window.confirm(`The visitor has ${waiting.count} unanswered message${waiting.count === 1 ? '' : 's'}. Hand back to the bot without replying?`)) return;
  delete ui.handBackNode.dataset.chosen; // used: afterwards the picker follows the bot again
  void run(`Hand back at ${nodeId}`, () => act('operator:hand-back', { nodeId }, '/hand-back', { nodeId }), Array.from(ui.handBackForm.elements) as HTMLElement[]);
});

ui.closeForm.addEventListener('submit', (e) => {
  e.preventDefault();
  // as with a hand-back: over messages nobody answered, ask first
  const waiting = open?.detail?.session.operator?.unanswered ?? open?.detail?.session.unanswered;
  if (waiting && !window.confirm(`The visitor has ${waiting.count} unanswered message${waiting.count === 1 ? '' : 's'}. Close the conversation without replying?`)) return;
  void run('Close', () => act('operator:close', {}, '/close', {}), Array.from(ui.closeForm.elements) as HTMLElement[]);
});

ui.decisionForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const answers: Record<string, unknown> = {};
  for (const input of Array.from(ui.decisionFields.querySelectorAll('input'))) {
    if (input.value !== input.dataset.original) answers[input.dataset.key!] = parseValue(input.value);
  }
  const corrected = Object.keys(answers);
  const payload = { decision: 'approve', ...(corrected.length ? { answers } : {}) };
  void run(corrected.length ? `Approve with ${corrected.join(', ')} corrected` : 'Approve', () => act('operator:decision', payload, '/decision', payload), Array.from(ui.decisionForm.elements) as HTMLElement[]);
});

ui.reject.addEventListener('click', () => {
  const payload = { decision: 'reject' };
  void run('Reject', () => act('operator:decision', payload, '/decision', payload), Array.from(ui.decisionForm.elements) as HTMLElement[]);
});

// --- exports ----------------------------------------------------------------

async function exportIntakes(format: 'json' | 'csv'): Promise<void> {
  if (!api) return;
  const tenant = ui.exportTenant.value;
  if (!tenant) return;
  ui.exportStatus.textContent = `Exporting ${tenant} as ${format.toUpperCase()}…`;
  try {
    const { blob } = await api.blob(`/tenants/${encodeURIComponent(tenant)}/export?format=${format}`);
    const name = `${tenant}-intakes.${format}`;
    const url = URL.createObjectURL(blob);
    const a = h('a', { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    const count = format === 'json'
      ? ((JSON.parse(await blob.text()) as { count?: number }).count ?? 0)
      : Math.max(0, (await blob.text()).trim().split('\r\n').length - 1);
    ui.exportStatus.textContent = `Downloaded ${name}: ${count} completed intake${count === 1 ? '' : 's'}.`;
  } catch (err) {
    ui.exportStatus.textContent = `Export failed: ${guard(err)}`;
  }
}

// --- wiring -----------------------------------------------------------------

ui.signInForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const key = ui.keyInput.value.trim();
  if (!key) {
    ui.signInError.textContent = 'Enter the admin key.';
    ui.keyInput.focus();
    return;
  }
  void signIn(key);
});
ui.signOut.addEventListener('click', () => signOut());
ui.tenant.addEventListener('change', () => {
  fillFlows();
  if (ui.tenant.value) ui.exportTenant.value = ui.tenant.value;
  void refreshList();
});
ui.status.addEventListener('change', () => void refreshList());
let searching: ReturnType<typeof setTimeout> | null = null;
ui.search.addEventListener('input', () => {
  if (searching) clearTimeout(searching);
  searching = setTimeout(() => void refreshList(), 300);
});
$<HTMLFormElement>('filters').addEventListener('submit', (e) => {
  e.preventDefault();
  void refreshList();
});
ui.flow.addEventListener('change', () => void refreshList());
ui.refresh.addEventListener('click', () => void refreshList());
ui.exportJson.addEventListener('click', () => void exportIntakes('json'));
ui.exportCsv.addEventListener('click', () => void exportIntakes('csv'));
$('zoom-in').addEventListener('click', () => map.zoomBy(1.25));
$('zoom-out').addEventListener('click', () => map.zoomBy(0.8));
$('zoom-fit').addEventListener('click', () => map.fit());
$('zoom-current').addEventListener('click', () => map.showCurrent());
let resizing: ReturnType<typeof setTimeout> | null = null;
window.addEventListener('resize', () => {
  if (resizing) clearTimeout(resizing);
  resizing = setTimeout(() => map.showCurrent(), 150);
});
window.addEventListener('hashchange', () => {
  route();
  const id = /^#session=([A-Za-z0-9_-]{8,64})$/.exec(location.hash)?.[1];
  if (id && api) void openSession(id);
});

const saved = storedKey();
if (saved) void signIn(saved);
else showSignIn();
