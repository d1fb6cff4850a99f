/**
 * Bavarian, Austrian and Swiss spellings of the words a yes, a no or a "don't know" is said with ("Nei, nüt", "weiß ned",
 * "koa Ahnung", "basst scho"): each standard word beside the spellings visitors type for it. `withDialect` adds, to a list of
 * phrases, every phrase with some of its words spelled so (at most `MAX_VARIANTS` a phrase), so each list of the pack that
 * reads a yes, a no, a hedge or a denial reads the dialect too — one table, not a phrase per list.
 */
const SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  // (not "nä" or "na": folded they are "na", the interjection of "na klar", "na ja")
  nein: ['nei', 'naa', 'noa'],
  ja: ['joa'],
  nicht: ['ned', 'net', 'nit', 'nöd'],
  nichts: ['nüt', 'nüüt', 'nix'],
  ich: ['i'],
  weiß: ['woaß', 'woas', 'waas', 'waß', 'wois'],
  keine: ['koa', 'koane', 'kei', 'kane'],
  kein: ['koa', 'kei', 'ka'],
  keinen: ['koan', 'kein'],
  ahnung: ['ahnig'],
  schon: ['scho'],
  noch: ['no', 'nu'],
  ist: ['is', 'isch'],
  alles: ['ois', 'olles', 'alls'],
  gut: ['guat', 'guet'],
  das: ['des'],
  habe: ['hab', 'hob', 'han'],
  hab: ['hob', 'han'],
  mehr: ['mea', 'meh'],
  gefährlich: ['gfährlich', 'gfährli', 'gföhrlich'],
  gefährliches: ['gfährlichs', 'gföhrliches'],
  passt: ['basst'],
  sicher: ['sicha'],
  glaube: ['glaub', 'glab'],
  möchte: ['möcht', 'mecht'],
  sagen: ['sogn', 'sage', 'sàge'],
  brauche: ['brauch'],
  glaub: ['glab'],
  wirklich: ['wirkli'],
};

/** Whole phrases said in one word in dialect ("nimmer", "nümme" for "nicht mehr"). */
const PHRASES: Readonly<Record<string, readonly string[]>> = {
  'nicht mehr': ['nimmer', 'nimma', 'nümm', 'nümme', 'nüme'],
};

/** At most this many spellings a phrase (its words' spellings combined). */
const MAX_VARIANTS = 64;

/** A phrase's dialect spellings, itself first. */
function variants(phrase: string): string[] {
  let out = [phrase.toLowerCase()];
  for (const [standard, said] of Object.entries(PHRASES)) {
    if (out[0]!.includes(standard)) out = [...out, ...said.map((s) => out[0]!.split(standard).join(s))];
  }
  for (const [i, word] of phrase.toLowerCase().split(' ').entries()) {
    const alt = SPELLINGS[word];
    if (!alt) continue;
    const next: string[] = [];
    for (const v of out) {
      next.push(v);
      for (const a of alt) {
        const ws = v.split(' ');
        if (ws[i] !== word) continue;
        ws[i] = a;
        next.push(ws.join(' '));
      }
    }
    out = next.slice(0, MAX_VARIANTS);
  }
  return out;
}

/** The list with each phrase's Bavarian, Austrian and Swiss spellings added ("weiß nicht" → "woaß ned", "weiß nöd", …). */
export function withDialect(list: readonly string[]): string[] {
  return [...new Set(list.flatMap(variants))];
}
