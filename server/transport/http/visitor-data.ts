import type { SessionStore, StoredSession } from '../../store/session-store.ts';

// A visitor's own data, found by the email address or phone number they gave:
// every session of a tenant with an answer equal to it. Used by the privacy
// routes to show (export) or erase everything of one person.

/** How a visitor is looked up: one email address or one phone number. */
export type VisitorQuery = { email: string } | { phone: string };

/** The digits of a phone number, without a leading international prefix's zeros ("+44 20…" and "0044 20…" agree). */
const digits = (s: string): string => s.replace(/\D/g, '').replace(/^0+/, '');

/** Whether a value looks like a phone number (digits and the usual separators). */
const phoneLike = (s: string): boolean => /^\+?[\d\s().\-/]{7,}$/.test(s.trim());

/** Whether one answer value is the visitor's email (case-insensitive) or phone (same digits; or one ends with the other's, at least 8). */
export function matchesVisitor(value: unknown, q: VisitorQuery): boolean {
  if (Array.isArray(value)) return value.some((v) => matchesVisitor(v, q));
  if (typeof value !== 'string') return false;
  if ('email' in q) return value.trim().toLowerCase() === q.email.trim().toLowerCase();
  if (!phoneLike(value)) return false;
  const a = digits(value);
  const b = digits(q.phone);
  if (a.length < 7 || b.length < 7) return false;
  return a === b || (Math.min(a.length, b.length) >= 8 && (a.endsWith(b) || b.endsWith(a)));
}

/** Whether a stored session holds an answer matching the visitor. */
export function sessionOfVisitor(r: StoredSession, q: VisitorQuery): boolean {
  return Object.values(r.session.answers).some((a) => matchesVisitor(a.value, q));
}

/** Every session of a tenant with an answer matching the visitor, newest first (reads each record of the tenant). */
export async function visitorSessions(store: SessionStore, tenant: string, q: VisitorQuery): Promise<StoredSession[]> {
  const out: StoredSession[] = [];
  for (const s of await store.list(tenant)) {
    const r = await store.load(s.id).catch(() => null);
    if (r && r.tenant === tenant && sessionOfVisitor(r, q)) out.push(r);
  }
  return out;
}
