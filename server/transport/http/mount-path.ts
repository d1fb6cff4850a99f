import { z } from 'zod';

// Questline's handler may be mounted under a path of the host's app
// (`app.use('/chat', questline.handler)`). The pages it serves (the demo
// page, the operator console) name their scripts and styles from the root;
// served under a mount they must name them under it, and their scripts then
// find the API and the socket.io endpoint relative to their own URL.

/** A mount path: '' (the site root) or `/a/b`, no trailing slash. */
export const MountPath = z.string().regex(/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$|^$/, 'a path such as /chat (or empty for the site root)')
  .transform((p) => p.replace(/\/+$/, ''));

/** The page's root-relative `src="/…"` and `href="/…"` rewritten under `base` (express's req.baseUrl). */
export function atMount(html: string, base: string): string {
  if (!base) return html;
  return html.replace(/\b(src|href)="\/(?!\/)/g, `$1="${base}/`);
}
