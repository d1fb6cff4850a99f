// Operator alerts (opt-in, per browser): a desktop notification and a short
// sound when a session becomes urgent (a red flag no operator has taken yet)
// or a visitor writes to an operator who has not answered. The console polls
// the sessions list for them on its own, also while its tab is hidden — that
// is when an alert matters.

import type { AdminApi } from './api.ts';
import type { SessionRow } from './types.ts';

const STORAGE = 'questline.alerts';
const EVERY_MS = 10_000;

/** What the poll found worth an alert, in words. */
export interface Alert {
  sessionId: string;
  title: string;
  body: string;
}

/**
 * The alerts the change from `before` to `now` deserves: a session urgent now
 * and not before (and not taken by an operator), and a session whose
 * unanswered visitor messages grew. The first look (`before` null) only takes
 * note: nothing that was already so when the operator opted in is announced.
 */
export function alertsFor(before: ReadonlyMap<string, SessionRow> | null, now: readonly SessionRow[]): Alert[] {
  if (!before) return [];
  const out: Alert[] = [];
  for (const r of now) {
    const was = before.get(r.id);
    if (r.urgent && !r.operator && !was?.urgent) {
      out.push({ sessionId: r.id, title: 'Urgent conversation', body: `${r.tenant}: ${r.urgent.reason}` });
    }
    if (r.unanswered && r.unanswered.count > (was?.unanswered?.count ?? 0)) {
      out.push({ sessionId: r.id, title: 'A visitor is waiting for your reply', body: `${r.tenant}: ${r.unanswered.count} unanswered message${r.unanswered.count === 1 ? '' : 's'} since ${new Date(r.unanswered.since).toLocaleTimeString()}` });
    }
  }
  return out;
}

/** Two short tones (Web Audio: no file to fetch, nothing for the CSP to refuse). */
function chime(): void {
  const Ctx = (window as unknown as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!Ctx) return;
  const ctx = new Ctx();
  [880, 660].forEach((hz, i) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = hz;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(ctx.destination);
    osc.start(ctx.currentTime + i * 0.18);
    osc.stop(ctx.currentTime + i * 0.18 + 0.15);
  });
  setTimeout(() => void ctx.close(), 1_000);
}

/** The opt-in alerts of the console: `start` once signed in, `stop` on sign-out. */
export class OperatorAlerts {
  private api: AdminApi | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private seen: Map<string, SessionRow> | null = null;

  constructor(private readonly toggle: HTMLInputElement, private readonly status: HTMLElement, private readonly open: (sessionId: string) => void) {
    this.toggle.checked = this.wanted();
    this.toggle.addEventListener('change', () => void this.setWanted(this.toggle.checked));
  }

  private wanted(): boolean {
    try {
      return localStorage.getItem(STORAGE) === 'on';
    } catch {
      return false;
    }
  }

  private async setWanted(on: boolean): Promise<void> {
    if (on && typeof Notification !== 'undefined' && Notification.permission === 'default') await Notification.requestPermission();
    try {
      localStorage.setItem(STORAGE, on ? 'on' : 'off');
    } catch {
      // storage off: for this page only
    }
    this.status.textContent = on
      ? typeof Notification !== 'undefined' && Notification.permission === 'denied'
        ? 'Alerts on, with sound only: this browser blocks notifications for the console.'
        : 'Alerts on: you will hear and see urgent sessions and visitors waiting for a reply.'
      : 'Alerts off.';
    this.restart();
  }

  start(api: AdminApi): void {
    this.api = api;
    this.restart();
  }

  stop(): void {
    this.api = null;
    this.restart();
  }

  private restart(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.seen = null;
    if (!this.api || !this.toggle.checked) return;
    void this.poll();
    this.timer = setInterval(() => void this.poll(), EVERY_MS);
  }

  /** One look at the sessions: alerts for what changed since the last. */
  async poll(): Promise<void> {
    if (!this.api) return;
    let rows: SessionRow[];
    try {
      rows = (await this.api.get<{ sessions: SessionRow[] }>('/sessions?limit=200')).sessions;
    } catch {
      return; // the list's own refresh reports problems
    }
    const alerts = alertsFor(this.seen, rows);
    this.seen = new Map(rows.map((r) => [r.id, r]));
    if (alerts.length === 0) return;
    chime();
    this.status.textContent = `${alerts[0]!.title}: ${alerts[0]!.body}${alerts.length > 1 ? ` (and ${alerts.length - 1} more)` : ''}`;
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    for (const a of alerts) {
      const n = new Notification(a.title, { body: a.body, tag: `${a.sessionId}:${a.title}` });
      n.onclick = () => {
        window.focus();
        this.open(a.sessionId);
      };
    }
  }
}
