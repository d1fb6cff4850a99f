// Questline may be mounted under a path of the host's site (`app.use('/chat',
// questline.handler)` with `createQuestline({ mountPath: '/chat' })`). The
// browser code finds everything relative to where its own script was served
// from: the other bundles, the REST API and the socket.io endpoint
// (`<mount>/socket.io`).

/** The URL a page's script was served from, with `/<file>` removed and no trailing slash: `https://site/chat` for `https://site/chat/widget.js`. */
export function mountBase(scriptSrc: string | undefined, file: string, fallback: string = location.origin): string {
  if (!scriptSrc) return fallback;
  try {
    const url = new URL(scriptSrc, location.href);
    const path = url.pathname.endsWith(`/${file}`) ? url.pathname.slice(0, -file.length - 1) : url.pathname.replace(/\/[^/]*$/, '');
    return `${url.origin}${path}`;
  } catch {
    return fallback;
  }
}

/** Where socket.io connects for a server URL that may carry a mount path: the origin with the namespace, and `<mount>/socket.io` as the path. */
export function socketTarget(server: string, namespace: string): { url: string; path: string } {
  const url = new URL(server, location.href);
  const mount = url.pathname.replace(/\/+$/, '');
  return { url: `${url.origin}${namespace}`, path: `${mount}/socket.io` };
}

/** The path part of the script's mount (`/chat`, or '' at the site root), for same-origin pages. */
export function mountPathOf(scriptSrc: string | undefined, file: string): string {
  return new URL(mountBase(scriptSrc, file), location.href).pathname.replace(/\/+$/, '');
}
