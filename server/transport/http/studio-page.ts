import { randomBytes } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { atMount } from './mount-path.ts';
import { pageFiles } from './page-files.ts';
import { rootPath } from '../../shared/root-dir.ts';

/**
 * The Studio's page: `/studio` (an HTML shell) and `/studio/studio.css`; the
 * script is the `/studio.js` bundle (client/studio/main.ts). Like the
 * console, the page holds no data and no key (the admin key is typed in and
 * kept in sessionStorage). The editor (CodeMirror) writes its styles into
 * <style> elements: they carry a nonce made per response, named in the CSP,
 * so no other inline style or any inline script runs.
 */
const cspOf = (nonce: string) => [
  "default-src 'none'", "script-src 'self'", `style-src 'self' 'nonce-${nonce}'`, "img-src 'self' data:", "connect-src 'self'",
  "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join('; ');

const FILES = {
  html: rootPath('client/studio/index.html'),
  css: rootPath('client/studio/studio.css'),
};

/** `/studio` and its stylesheet. */
export function studioPage(): Router {
  const r = Router();
  const file = pageFiles();

  r.get(['/studio', '/studio/'], async (req: Request, res: Response) => {
    const nonce = randomBytes(16).toString('base64');
    res.setHeader('Content-Security-Policy', cspOf(nonce));
    res.setHeader('Cache-Control', 'no-store');
    const html = atMount(await file(FILES.html), req.baseUrl).replace('__CSP_NONCE__', nonce);
    res.type('text/html; charset=utf-8').send(html);
  });
  r.get('/studio/studio.css', async (_req: Request, res: Response) => {
    res.setHeader('Content-Security-Policy', cspOf('none'));
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/css; charset=utf-8').send(await file(FILES.css));
  });
  return r;
}
