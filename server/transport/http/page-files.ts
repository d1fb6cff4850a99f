import { readFile } from 'node:fs/promises';

/**
 * A page's static files (HTML shell, stylesheet) read once and kept: each
 * path's text is read on first use; a failed read is forgotten, so the next
 * request tries again. Shared by the console (`/admin`) and the Studio (`/studio`).
 */
export function pageFiles(): (path: string) => Promise<string> {
  const cache = new Map<string, Promise<string>>();
  return (path) => {
    let text = cache.get(path);
    if (!text) {
      text = readFile(path, 'utf8');
      cache.set(path, text);
      text.catch(() => cache.delete(path));
    }
    return text;
  };
}
