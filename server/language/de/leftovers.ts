import type { LeftoverWords } from '../leftover-words.ts';

/** German leftovers (server/extract/offline/remarks.ts). */
export const DE_LEFTOVERS: LeftoverWords = {
  compete: [
    'aber', 'doch', 'jedoch', 'allerdings', 'außer', 'es sei denn', 'falls', 'wenn', 'vielleicht', 'eventuell', 'wahrscheinlich',
    'möglicherweise', 'glaube', 'denke', 'schätze', 'nicht sicher', 'unsicher', 'hängt', 'kommt drauf an', 'kommt darauf an', 'oder',
    'teilweise', 'früher', 'nicht mehr', 'sorry', 'entschuldigung', 'moment', 'warte', 'eigentlich', 'falsch', 'meine',
    'meinte', 'tippfehler', 'korrektur', 'hoffentlich', 'weiß nicht', 'keine ahnung', 'kann ich nicht sagen', 'nicht nachgesehen',
  ],
  besideContact: ['aber', 'doch', 'jedoch', 'allerdings', 'oder'],
  unsure: ['nicht sicher', 'unsicher', 'nicht ganz sicher', 'weiß nicht genau', 'nicht mehr genau', 'keine ahnung', 'wenn ich mich recht erinnere', 'ohne gewähr'],
  plain: ['alles ok', 'alles okay', 'alles gut', 'alles in ordnung', 'alles sicher', 'passt schon', 'passt scho', 'passt eh', 'passt alles', 'alles passt'],
  // ("war noch nicht draußen": not yet looked, no "not yet" to the question)
  bound: ['haben wir', 'habe ich', 'haben wir nicht', 'habe ich nicht', 'noch nicht'],
  dateCompete: [
    'nach', 'vor', 'bis', 'ab', 'seit', 'zwischen', 'um', 'gegen', 'ungefähr', 'etwa', 'ca', 'circa', 'woche', 'wochenende',
    'ende', 'anfang', 'mitte', 'nächste', 'nächsten', 'letzte', 'letzten',
  ],
  below: ['weniger als', 'unter', 'unterhalb', 'knapp unter', 'kleiner als', 'niedriger als', 'nicht ganz'],
  forNow: ['im moment', 'momentan', 'derzeit', 'zurzeit', 'zur zeit', 'aktuell', 'vorerst', 'fürs erste', 'erstmal', 'erst mal', 'gegenwärtig'],
  numberCompete: [
    'pro', 'je', 'jeweils', 'jede', 'jeden', 'jedes', 'im monat', 'im jahr', 'in der woche', 'am tag', 'monatlich', 'jährlich',
    'wöchentlich', 'täglich', 'stündlich', 'übrig', 'verbleibend', 'ausgegeben', 'bereits', 'schon', 'mehr', 'weniger', 'über',
    'mindestens', 'bisher', 'plus', 'noch', 'nochmal', 'zusätzlich', 'extra',
  ],
  numberExplained: [
    // folded text: "für" is "fur", "Förderverein" is "forderverein"
    /\b(?:der |die |das |unser |unsere )?(?:vorstand|verein|forderverein|gemeinde|stadt|schule|kreis|stiftung|sponsor(?:en)?)?\s*(?:hat |haben )?(?:genehmigt|bewilligt|freigegeben|beschlossen|zugesagt|eingeplant|vorgesehen|gesammelt)\b/gu,
    /\b(?:vom|von der|von|aus dem|aus der|aus|uber den|uber die|uber das|durch) (?:dem |der |den |unserem |unserer |einem |einer )?[\p{L}'-]+\b/gu,
    /\b(?:fordermittel|forderung|zuschuss|spenden?|sponsoring|rucklagen|eigenmittel|vorstand|verein|forderverein|gemeinde|stadt|schule|stiftung|sponsor(?:en)?)\b/gu,
    /\b(?:fur|furs) (?:das |den |die |unser |unsere |beide |alle )?(?:ganze |ganzen |gesamte |gesamten |komplette |kompletten )?[\p{L}'-]+(?: [\p{L}'-]+)?\b/gu,
    /\b(?:insgesamt|gesamt|alles in allem|maximal|max|hochstens|obergrenze|limit|idealerweise|davon)\b/gu,
    // "Gesamtbudget", "Gesamtkosten": a total named in one word
    /\bgesamt[\p{L}]*/gu,
  ],
  numberAside: [
    // was es abdeckt: "inkl. Montage", "inklusive Installation", "mit Montage", "Montage inklusive", "das muss aber die Montage abdecken"
    /(?:\b(?:aber|allerdings|jedoch)\s+)?\b(?:inkl|inklusive|einschliesslich|einschl|samt|mit)[.\u2024]?\s+(?:der\s+|die\s+|dem\s+|allem\s+)?(?:montage|installation|einbau|lieferung|versand|verkabelung|masten|mwst|mehrwertsteuer|steuer|allem|alles)\b/gu,
    /\b(?:montage|installation|einbau|lieferung|alles)\s+(?:inklusive|inkl[.\u2024]?|inbegriffen|dabei)\b/gu,
    /\b(?:das|der|es|die)\s+(?:muss|soll|sollte|musste|mussen)\s+(?:aber\s+|allerdings\s+|auch\s+)*(?:die\s+|den\s+|das\s+)?[\p{L}-]+\s+(?:mit\s+)?(?:abdecken|einschliessen|enthalten|umfassen|beinhalten)\b/gu,
    // wie weit es genehmigt ist: "ist aber noch nicht freigegeben", "noch nicht genehmigt", "muss noch genehmigt werden"
    /(?:\b(?:ist|sind|wurde|wurden)\s+)?(?:\b(?:aber|allerdings|jedoch)\s+)?(?:\bnoch\s+)?\bnicht\s+(?:(?:ganz|final|endgultig|offiziell)\s+)?(?:freigegeben|genehmigt|bewilligt|beschlossen|abgesegnet)\b/gu,
    /\b(?:muss|mussen)\s+(?:aber\s+)?noch\s+(?:freigegeben|genehmigt|bewilligt|beschlossen|abgesegnet)\s+werden\b|\bvorbehaltlich\s+(?:der\s+)?(?:freigabe|genehmigung)\b/gu,
  ],
  estimate: {
    invited: /(?:grob|schätz|schaetz|ungefähr|ungefaehr|überschlag|pi mal daumen|richtwert)/iu,
    guesses: [
      'so um die', 'um die', 'so ungefähr', 'so etwa', 'in etwa', 'rund', 'grob', 'schätzungsweise', 'schätze', 'glaube', 'denke',
      'vielleicht etwas mehr', 'vielleicht mehr', 'etwas mehr', 'eher mehr', 'oder mehr', 'etwas weniger', 'plus minus', 'vielleicht',
      'wahrscheinlich', 'eventuell', 'hängt', 'kommt drauf an', 'kommt darauf an', 'hoffentlich', 'wenn', 'falls',
    ],
  },
};
