import type { YesNoWords } from '../yes-no-words.ts';

/** English yes/no by content (server/extract/offline/yes-no-content.ts). */
export const EN_YES_NO: YesNoWords = {
  any: ['any', 'anything', 'anyone', 'anybody'],
  none: [
    'none', 'nothing', 'none at all', 'nothing at all', 'none known', 'nothing known', 'none that i know of', 'not that i know of',
    "not that i'm aware of", 'not that im aware of', 'not that we know of', "not that we're aware of", 'not that i can see',
    'not that i can tell', 'nothing like that', 'none of that', 'none of those', 'nothing of the sort', 'nothing of that sort',
    'not anymore', 'not any more', 'no longer', 'nope none', 'none whatsoever', 'nothing whatsoever',
  ],
  anyWords: ['any', 'anything'],
  listJoiners: ['or'],
  notItems: ['moment', 'including', 'important', 'chance', 'looks', 'could', 'would', 'right', 'currently', 'today'],
  fine: ['fine', 'ok', 'okay', 'good', 'safe', 'secure', 'solid', 'stable', 'normal', 'all right', 'alright', 'not loose', 'intact'],
  neutral: ['new', 'brand new', 'old', 'older', 'replaced', 'redone', 'repaired', 'installed', 'upgraded', 'renewed', 'checked', 'inspected', 'serviced', 'led', 'years old', 'months old', 'looked at', 'normally', 'usually'],
  ended: ['no longer', 'anymore', 'any more', 'stopped', 'used to', 'lapsed', 'expired', 'gone', 'went away'],
};
