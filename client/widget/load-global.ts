const loads = new Map<string, Promise<unknown>>();

/**
 * Loads `src` once per page with a script tag and resolves with the global
 * it defines on `window` (the page's CSP already allows scripts from the
 * server, since widget.js came from it). A failed load may be retried.
 */
export function loadGlobal<T>(src: string, name: string): Promise<T> {
  const w = window as unknown as Record<string, T | undefined>;
  if (w[name]) return Promise.resolve(w[name]!);
  let pending = loads.get(src) as Promise<T> | undefined;
  if (pending) return pending;
  pending = new Promise<T>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => (w[name] ? resolve(w[name]!) : reject(new Error(`${src} did not define ${name}`)));
    script.onerror = () => reject(new Error(`could not load ${src}`));
    (document.head ?? document.documentElement).append(script);
  });
  loads.set(src, pending);
  pending.catch(() => loads.delete(src));
  return pending;
}
