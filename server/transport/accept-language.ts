import type { IncomingHttpHeaders } from 'node:http';
import Negotiator from 'negotiator';

/**
 * The languages a visitor's browser asks for, most preferred first: the
 * `Accept-Language` header parsed by negotiator (q-values honoured, `q=0`
 * refused, `*` dropped). Empty when there is no header.
 */
export function acceptedLanguages(headers: IncomingHttpHeaders): string[] {
  if (!headers['accept-language']) return [];
  return new Negotiator({ headers }).languages().filter((l) => l !== '*');
}

/** What a session start asks for: the locale given explicitly (body, `session:start`), then the browser's languages. */
export function wantedLocales(explicit: string | undefined, headers: IncomingHttpHeaders): string[] {
  return [...(explicit ? [explicit] : []), ...acceptedLanguages(headers)];
}
