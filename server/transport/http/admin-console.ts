import { Router, type Request, type Response } from 'express';
import { atMount } from './mount-path.ts';
import { pageFiles } from './page-files.ts';
import { rootPath } from '../../shared/root-dir.ts';

/**
 * The operator console's page: `/admin` (an HTML shell) and `/admin/console.css`.
 * The script is the `/admin.js` bundle (client/admin/main.ts). The page holds
 * no data and no key: the operator types the admin key, which the script keeps
 * in sessionStorage and sends as the `X-Questline-Admin` header and the
 * /operator handshake auth, never in a URL. Strict CSP: scripts and styles
 * from this origin only, no inline code, no frames.
 */
const ADMIN_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join('; ');

const FILES = {
  html: rootPath('client/admin/index.html'),
  css: rootPath('client/admin/console.css'),
};

export function adminConsole(): Router {
  const r = Router();
  const file = pageFiles();
  const secure = (res: Response) => {
    res.setHeader('Content-Security-Policy', ADMIN_CSP);
    res.setHeader('Cache-Control', 'no-cache');
  };

  r.get(['/admin', '/admin/'], async (req: Request, res: Response) => {
    secure(res);
    res.type('text/html; charset=utf-8').send(atMount(await file(FILES.html), req.baseUrl));
  });
  r.get('/admin/console.css', async (_req: Request, res: Response) => {
    secure(res);
    res.type('text/css; charset=utf-8').send(await file(FILES.css));
  });
  return r;
}
