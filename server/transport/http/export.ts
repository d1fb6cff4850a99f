import { stringify } from 'csv-stringify/sync';
import type { SessionStore, StoredSession } from '../../store/session-store.ts';

/** One completed intake, as exported. */
export interface Intake {
  sessionId: string;
  flowId: string;
  revision: string;
  completedAt: string;
  outcome: string | null;
  answers: Record<string, unknown>;
}

const intakeOf = (r: StoredSession): Intake => ({
  sessionId: r.id, flowId: r.flowId, revision: r.revision, completedAt: r.updatedAt, outcome: r.session.outcome ?? null,
  answers: Object.fromEntries(Object.entries(r.session.answers).map(([k, a]) => [k, a.value])),
});

/** A tenant's completed intakes, newest first (at most `limit`). */
export async function completedIntakes(store: SessionStore, tenant: string, limit: number): Promise<Intake[]> {
  const summaries = await store.list(tenant, { status: 'completed', limit });
  const out: Intake[] = [];
  for (const s of summaries) {
    const record = await store.load(s.id);
    if (record && record.status === 'completed' && !record.preview) out.push(intakeOf(record)); // a Studio preview is not an intake
  }
  return out;
}

/**
 * A cell as text. Lists are joined with "; ", objects are JSON. Text a
 * spreadsheet would run as a formula (= + - @, tab, CR at the start) gets a
 * leading apostrophe: visitors typed these values.
 */
function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const s = Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('; ') : typeof v === 'string' ? v : JSON.stringify(v);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

/** CSV with a header row: session_id, flow_id, revision, completed_at, outcome, then every answer key (sorted). */
export function intakesCsv(intakes: readonly Intake[]): string {
  const keys = [...new Set(intakes.flatMap((i) => Object.keys(i.answers)))].sort();
  const header = ['session_id', 'flow_id', 'revision', 'completed_at', 'outcome', ...keys];
  const rows = intakes.map((i) => [i.sessionId, i.flowId, i.revision, i.completedAt, i.outcome ?? '', ...keys.map((k) => cell(i.answers[k]))]);
  return stringify([header, ...rows], { quoted_match: /[",\r\n]/, record_delimiter: 'windows' });
}
