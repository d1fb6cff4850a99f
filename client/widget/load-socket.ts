import type { io as ioFunction } from 'socket.io-client';

export type Io = typeof ioFunction;

const loads = new Map<string, Promise<Io>>();

/**
 * socket.io-client from `SERVER/widget-socket.js`, loaded once per page with
 * a script tag (the page's CSP already allows scripts from the server, since
 * widget.js came from it). A failed load may be retried.
 */
export function loadSocketIo(server: string): Promise<Io> {
  const w = window as unknown as { __questlineIo?: Io };
  if (w.__questlineIo) return Promise.resolve(w.__questlineIo);
  const src = `${server.replace(/\/+$/, '')}/widget-socket.js`;
  let pending = loads.get(src);
  if (pending) return pending;
  pending = new Promise<Io>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => (w.__questlineIo ? resolve(w.__questlineIo) : reject(new Error(`${src} did not define the socket client`)));
    script.onerror = () => reject(new Error(`could not load ${src}`));
    (document.head ?? document.documentElement).append(script);
  });
  loads.set(src, pending);
  pending.catch(() => loads.delete(src));
  return pending;
}
