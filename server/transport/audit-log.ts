import type { Logger } from '../observability/logger.ts';

// Who did what to whose conversation: every operator action (REST or the
// /operator namespace) is one `audit` log line, so a deployment can keep them
// apart from the rest of the log (filter on `audit: true`).

/** One operator action. */
export interface AuditEntry {
  /** Who acted: "admin" for the ADMIN_KEY holder, else the operator's name (OPERATOR_KEYS). */
  actor: string;
  /** The client address (past trusted proxies). */
  ip: string;
  action: string;
  sessionId?: string;
  tenant?: string;
  [detail: string]: unknown;
}

/** Writes one operator action to the log, marked `audit: true`. */
export function audit(logger: Logger, entry: AuditEntry): void {
  logger.info({ audit: true, ...entry }, `audit: ${entry.actor} ${entry.action}`);
}
