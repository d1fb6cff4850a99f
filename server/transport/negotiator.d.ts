// negotiator (express's own dependency, via accepts) ships no types; the one method used here.
declare module 'negotiator' {
  import type { IncomingHttpHeaders } from 'node:http';
  class Negotiator {
    constructor(request: { headers: IncomingHttpHeaders });
    /** Accepted languages, most preferred first (q-values honoured, q=0 left out). */
    languages(available?: string[]): string[];
  }
  export default Negotiator;
}
