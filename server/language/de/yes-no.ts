import type { YesNoWords } from '../yes-no-words.ts';

/** German yes/no by content (server/extract/offline/yes-no-content.ts). */
export const DE_YES_NO: YesNoWords = {
  any: ['irgendwelche', 'irgendwas', 'irgendetwas', 'etwas', 'gibt es'],
  none: [
    'keine', 'keiner', 'keins', 'keines', 'nichts', 'gar nichts', 'gar keine', 'überhaupt nichts', 'nichts dergleichen', 'nichts davon',
    'nichts in der art', 'nichts derartiges', 'nicht dass ich wüsste', 'nicht dass wir wüssten', 'mir ist nichts bekannt',
    'uns ist nichts bekannt', 'keine bekannt', 'nichts bekannt', 'nicht mehr', 'nichts zu sehen',
  ],
  anyWords: ['irgendwas', 'irgendetwas', 'etwas'],
  listJoiners: ['oder'],
  notItems: ['gerade', 'moment', 'momentan', 'derzeit', 'zurzeit', 'wichtig', 'chance', 'könnte', 'koennte'],
  fine: ['in ordnung', 'ok', 'okay', 'gut', 'sicher', 'stabil', 'fest', 'normal', 'intakt', 'nicht lose', 'keine losen'],
  neutral: ['neu', 'neue', 'neuen', 'alt', 'alte', 'alten', 'erneuert', 'repariert', 'ersetzt', 'geprüft', 'installiert', 'gewartet', 'led', 'jahre alt', 'normalerweise', 'sonst'],
  ended: ['nicht mehr', 'früher', 'vorbei', 'abgelaufen', 'aufgehört', 'abgesetzt'],
};
