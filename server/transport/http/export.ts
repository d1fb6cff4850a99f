import type * as CsvSync from 'csv-stringify/sync';
import { lazyRequire } from '../../shared/lazy-require.ts';
import type { SessionStore, StoredSession } from '../../store/session-store.ts';

/** csv-stringify/sync, loaded on the first request that needs it, not with the server (server/shared/lazy-require.ts). */
const csv = lazyRequire<typeof CsvSync>('csv-stringify/sync');

/** The statuses a lead is exported with: a session's status, with an idle ending (`abandoned`, outcome `timed_out`) as `timed_out`. */
export const EXPORT_STATUSES = ['completed', 'escalated', 'abandoned', 'timed_out', 'active', 'waiting', 'error'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** One session of a tenant, as exported: every lead, finished or not. */
export interface Intake {
  sessionId: string;
  flowId: string;
  revision: string;
  status: ExportStatus;
  /** When it completed (null unless `completed`). */
  completedAt: string | null;
  /** The last activity (the ending, for a session that ended). */
  updatedAt: string;
  outcome: string | null;
  /** Why a trigger marked it urgent (a red flag, a hazard), else null. */
  urgent: string | null;
  answers: Record<string, unknown>;
}

/** The status a stored session is exported with. */
export function exportStatus(r: Pick<StoredSession, 'status'> & { session: { outcome?: string } }): ExportStatus {
  return r.status === 'abandoned' && r.session.outcome === 'timed_out' ? 'timed_out' : r.status;
}

const intakeOf = (r: StoredSession): Intake => ({
  sessionId: r.id, flowId: r.flowId, revision: r.revision, status: exportStatus(r),
  completedAt: r.status === 'completed' ? r.updatedAt : null, updatedAt: r.updatedAt, outcome: r.session.outcome ?? null,
  urgent: r.session.urgent?.reason ?? null,
  answers: Object.fromEntries(Object.entries(r.session.answers).map(([k, a]) => [k, a.value])),
});

/** A tenant's sessions, newest first (at most `limit`), every status or only `status`; Studio previews are left out. */
export async function intakes(store: SessionStore, tenant: string, limit: number, status?: ExportStatus): Promise<Intake[]> {
  const stored = status === 'timed_out' ? 'abandoned' : status;
  const summaries = await store.list(tenant, { limit: status === 'abandoned' || status === 'timed_out' ? Math.max(limit, 10_000) : limit, ...(stored ? { status: stored } : {}) });
  const out: Intake[] = [];
  for (const s of summaries) {
    if (out.length >= limit) break;
    const record = await store.load(s.id);
    if (!record || record.preview) continue; // a Studio preview is not a lead
    const intake = intakeOf(record);
    if (status === undefined || intake.status === status) out.push(intake);
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

/** CSV with a header row: session_id, flow_id, revision, status, completed_at, updated_at, outcome, urgent, then every answer key (sorted). */
export function intakesCsv(intakes: readonly Intake[]): string {
  const keys = [...new Set(intakes.flatMap((i) => Object.keys(i.answers)))].sort();
  const header = ['session_id', 'flow_id', 'revision', 'status', 'completed_at', 'updated_at', 'outcome', 'urgent', ...keys];
  const rows = intakes.map((i) => [i.sessionId, i.flowId, i.revision, i.status, i.completedAt ?? '', i.updatedAt, i.outcome ?? '', i.urgent ?? '',
    ...keys.map((k) => cell(i.answers[k]))]);
  return csv().stringify([header, ...rows], { quoted_match: /[",\r\n]/, record_delimiter: 'windows' });
}
