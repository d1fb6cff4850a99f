import type { YesNoWords } from '../yes-no-words.ts';

/** German yes/no by content (server/extract/offline/yes-no-content.ts). */
export const DE_YES_NO: YesNoWords = {
  any: ['irgendwelche', 'irgendwas', 'irgendetwas', 'etwas', 'gibt es'],
  none: [
    'keine', 'keiner', 'keins', 'keines', 'nichts', 'gar nichts', 'gar keine', 'überhaupt nichts', 'nichts dergleichen', 'nichts davon',
    'nichts in der art', 'nichts derartiges', 'nicht dass ich wüsste', 'nicht dass wir wüssten', 'mir ist nichts bekannt',
    'uns ist nichts bekannt', 'keine bekannt', 'nichts bekannt', 'nicht mehr', 'nichts zu sehen',
    // "nix" is how "nichts" is often typed
    'nix', 'gar nix', 'nix dergleichen', 'nix davon', 'nix bekannt', 'sonst nichts', 'nichts weiter',
    'nicht dass ich mich erinnere', 'nicht soweit ich weiß', 'soweit ich weiß nicht', 'mir fällt nichts ein', 'fällt mir nichts ein', 'nichts was mir einfällt',
  ],
  many: ['zu viele zum aufzählen', 'eine ganze liste', 'eine lange liste', 'ganz schön viele', 'eine ganze menge'],
  anyWords: ['irgendwas', 'irgendetwas', 'etwas'],
  listJoiners: ['oder'],
  negatedJoiners: ['noch'],
  notItems: ['gerade', 'moment', 'momentan', 'derzeit', 'zurzeit', 'wichtig', 'chance', 'könnte', 'koennte'],
  fine: ['in ordnung', 'ok', 'okay', 'gut', 'sicher', 'stabil', 'fest', 'normal', 'intakt', 'nicht lose', 'keine losen'],
  neutral: ['neu', 'neue', 'neuen', 'alt', 'alte', 'alten', 'erneuert', 'repariert', 'ersetzt', 'geprüft', 'installiert', 'gewartet', 'led', 'jahre alt', 'normalerweise', 'sonst',
    // ein Fehler ohne Gefahr: das Licht geht nur nicht richtig ("bleibt dunkel", "nur dunkel", "flackert")
    'dunkel', 'bleibt dunkel', 'dunkler', 'flackert', 'flackern', 'flackernd', 'geht nicht', 'geht nicht an', 'gehen nicht', 'gehen nicht an',
    'funktioniert nicht', 'funktionieren nicht', 'brummt', 'summt'],
  ended: ['nicht mehr', 'früher', 'vorbei', 'abgelaufen', 'aufgehört', 'abgesetzt'],
  kinds: [
    { names: ['medikament', 'medikamente', 'medikamenten', 'arzneimittel', 'tabletten', 'nahrungsergänzungsmittel', 'nahrungsergänzung'],
      members: ['medikamente', 'tabletten', 'pille', 'die pille', 'vitamine', 'vitamin d', 'magnesium', 'eisen', 'ibuprofen', 'paracetamol', 'aspirin',
        'antibiotika', 'antibiotikum', 'penicillin', 'insulin', 'metformin', 'schilddrüsentabletten', 'l-thyroxin', 'blutdrucktabletten', 'blutverdünner',
        'asthmaspray', 'cortison', 'kortison', 'antidepressiva', 'schmerzmittel'] },
    { names: ['lebensmittel', 'nahrungsmittel', 'essen'],
      members: ['erdnüsse', 'nüsse', 'nuss', 'haselnüsse', 'meeresfrüchte', 'fisch', 'eier', 'ei', 'milch', 'laktose', 'gluten', 'weizen', 'soja', 'sesam', 'erdbeeren'] },
    { names: ['latex'], members: ['latex', 'latexhandschuhe'] },
    { names: ['pollen', 'heuschnupfen', 'tiere'],
      members: ['pollen', 'heuschnupfen', 'hausstaub', 'hausstaubmilben', 'katzen', 'katze', 'hunde', 'hund', 'tierhaare', 'gräser', 'schimmel', 'bienen', 'wespen'] },
    { names: ['symptom', 'symptome', 'beschwerden'],
      members: ['husten', 'schnupfen', 'halsschmerzen', 'kopfschmerzen', 'fieber', 'ausschlag', 'ohrenschmerzen', 'bauchschmerzen', 'übelkeit', 'rückenschmerzen', 'müde', 'erkältung'] },
  ],
  only: ['nur', 'bloß', 'lediglich', 'einfach nur'],
  onlyWhen: ['wenn', 'falls', 'sobald', 'beim', 'nachdem', 'während'],
  frequency: ['manchmal', 'gelegentlich', 'ab und zu', 'bei bedarf', 'hin und wieder'],
  allFine: ['alles in ordnung', 'alles gut', 'alles ok', 'alles okay', 'alles sicher', 'alles bestens', 'alles fein', 'sieht gut aus', 'sieht alles gut aus',
    'sieht alles normal aus', 'scheint alles in ordnung', 'scheint in ordnung', 'nichts gefährliches', 'nichts unsicheres', 'nichts kaputt',
    'nix gefährliches', 'nix gefährlich', 'nix unsicheres', 'nix kaputt', 'alles normal', 'sieht normal aus',
    // "passt scho", "basst scho", "passt eh" (süddeutsch, österreichisch): alles in Ordnung
    'passt schon', 'passt scho', 'passt eh', 'passt alles', 'alles passt'],
  rulesOut: [
    { topic: ['schwanger'],
      facts: ['ich bin ein mann', 'ich bin männlich', 'männlich', 'ein junge', 'mein sohn', 'er ist', 'gebärmutterentfernung', 'sterilisiert',
        'wechseljahre', 'menopause', 'nicht möglich', 'unmöglich', 'ausgeschlossen'],
      age: /(?:^|\s)(?:sie|er) ist\s+(?:erst\s+|nur\s+)?(\d{1,2})(?:\s*jahre?(?:\s+alt)?)?\s*$/u, under: 10 },
  ],
  precautions: ['abgesperrt', 'abgeriegelt', 'abgesichert', 'gesperrt', 'absperrband', 'halten die leute fern', 'niemand geht hin'],
  alike: [['kabel', 'leitung', 'leitungen', 'draht', 'drähte'],
    // was umfallen könnte: lose, locker, wackelt, schief; Funken: Brandgeruch, Rauch
    ['umfallen', 'fallen', 'umfällt', 'lose', 'locker', 'wackelt', 'wackelig', 'wacklig', 'schief', 'kippt'],
    ['funken', 'funkt', 'gefunkt', 'brandgeruch', 'verbrannt', 'kokelt', 'schmort', 'geschmort', 'rauch', 'raucht', 'qualm', 'qualmt', 'feuer', 'brennt']],
  conditions: ['wenn', 'sobald', 'nach', 'während', 'beim', 'nachts', 'morgens'],
  assent: {
    asks: ['einverstanden', 'zustimmen', 'stimmen sie', 'akzeptieren', 'in ordnung'],
    words: ['meinetwegen', 'von mir aus', 'na gut', 'na schön', 'passt schon', 'wenns sein muss', "wenn's sein muss", 'wenn es sein muss', 'schon gut', 'jaja'],
    not: ['mir geht es gut', 'mir gehts gut'],
  },
  chance: {
    asks: ['möglichkeit', 'möglich', 'sein könnten', 'sein könnte', 'könnten sie', 'könntest du'],
    possible: ['könnte sein', 'kann sein', 'möglich', 'möglicherweise', 'vielleicht', 'eventuell', 'wir versuchen es', 'wir probieren es', 'nicht ausgeschlossen'],
  },
};
