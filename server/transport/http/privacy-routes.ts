import { Router, type NextFunction, type Request, type Response } from 'express';
import type { ConversationService } from '../../conversation/service.ts';
import type { Logger } from '../../observability/logger.ts';
import { SessionId } from '../../protocol/index.ts';
import type { RateLimits } from '../rate-limits.ts';
import { actorOf, admitAdmin, clientIp, param } from './auth.ts';
import { audit } from '../audit-log.ts';
import { HttpError } from '../errors.ts';
import type { AdminAccess } from '../admin-access.ts';

/** What the privacy routes need. */
export interface PrivacyDeps {
  service: ConversationService;
  limits: RateLimits;
  logger: Logger;
  /** The admin key and named operator keys. */
  admins: AdminAccess;
}

/** Refuses a request without the admin key (same rules and failure limit as the other admin routes). */
function adminOnly(deps: PrivacyDeps) {
  return async (req: Request, res: Response, next: NextFunction) => {
    res.locals.actor = await admitAdmin(deps.limits, deps.admins, req);
    next();
  };
}

/**
 * `DELETE /api/v1/admin/sessions/:id`: erases a session, its transcript and
 * its trace (a person's request to be forgotten). 204 when erased, 404
 * `unknown_session` when there was nothing to erase.
 */
export function privacyRoutes(deps: PrivacyDeps): Router {
  const r = Router();
  r.delete('/sessions/:id', adminOnly(deps), async (req: Request, res: Response) => {
    res.locals.routeBase = '/api/v1/admin'; // the mount path, not the request's spelling of it
    const id = param(req, 'id');
    if (!SessionId.safeParse(id).success) throw new HttpError('unknown_session', 'no such session');
    const existed = await deps.service.erase(id);
    if (!existed) throw new HttpError('unknown_session', 'no such session');
    audit(deps.logger, { actor: actorOf(res), ip: clientIp(req), action: 'erase', sessionId: id });
    res.status(204).end();
  });
  return r;
}
