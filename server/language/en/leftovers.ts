import type { LeftoverWords } from '../leftover-words.ts';

/** English leftovers (server/extract/offline/remarks.ts). */
export const EN_LEFTOVERS: LeftoverWords = {
  compete: [
    'but', 'though', 'although', 'however', 'except', 'unless', 'if', 'maybe', 'perhaps', 'probably', 'possibly', 'might',
    'guess', 'think', 'not sure', 'unsure', 'depends', 'depending', 'or', 'either', 'partly', 'used to', 'anymore',
    'any more', 'no longer', 'sorry', 'wait', 'actually', 'wrong', 'mean', 'meant', 'typo', 'correction', 'hopefully',
    'hope', "can't tell", 'cant tell', 'cannot tell', "can't say", 'cant say', 'no idea', "don't know", 'dont know',
    "haven't checked", 'not checked',
  ],
  besideContact: ['but', 'though', 'although', 'however', 'or', 'either'],
  unsure: ['not sure', 'unsure', 'not certain', "can't remember", 'cant remember', "don't remember", 'dont remember', 'not 100%', 'no idea', 'if i remember', 'double check', 'double-check'],
  plain: ['right now', 'right away', 'right here', 'right there', 'right after', 'right before', 'right side', 'right hand', 'right arm', 'right leg', 'right eye', 'right ear', 'right foot', 'no problem with', 'no issue with'],
  bound: ['i do', 'we do', 'i am', 'we are', "i'm", "we're", "i don't", 'i do not', "we don't", 'we do not', "i'm not", 'i am not', "we're not"],
  dateCompete: [
    'after', 'before', 'by', 'until', 'till', 'from', 'since', 'between', 'around', 'about', 'approx', 'roughly',
    'week', 'weekend', 'end', 'early', 'late', 'mid', 'middle', 'start', 'beginning', 'or so', 'ish', 'next', 'last', 'ago',
  ],
  below: ['less than', 'fewer than', 'lower than', 'under', 'below', 'beneath', 'short of', 'not quite', 'just under', 'a bit under', 'a little under'],
  forNow: ['right now', 'for now', 'at the moment', 'currently', 'at present', 'for the moment', 'for the time being', 'as of now', 'as things stand', 'as it stands'],
  numberCompete: [
    'per', 'each', 'every', 'a month', 'a year', 'a week', 'a day', 'an hour', 'monthly', 'yearly', 'annually', 'weekly',
    'daily', 'hourly', 'apiece', 'left', 'remaining', 'spent', 'already', 'more', 'less', 'over', 'above', 'at least',
    'minimum', 'min', 'so far', 'plus', 'another', 'extra', 'additional',
  ],
  numberExplained: [
    // who approved or gives it: "board approved", "the council allocated", "from a grant", "through fundraising"
    /\b(?:the |our |a |an )?(?:board|council|committee|pta|club|school|district|trust|foundation|sponsors?|donors?|members?)?\s*(?:has |have |just )?(?:approved|budgeted|allocated|granted|signed off|set aside|raised|agreed)\b/gu,
    /\b(?:from|through|via|thanks to) (?:the |our |a |an |some |local |private )?[\p{L}'-]+(?: [\p{L}'-]+)?\b/gu,
    /\b(?:grant|grants|fundraising|fundraiser|sponsorship|donations?|savings|reserves|board|council|committee|pta|district|trust|foundation|sponsors?|donors?)\b/gu,
    // what it covers: "for the whole stadium", "for everything", "for both courts", "total for the project"
    /\bfor (?:the |our |this |that |both |all )?(?:whole |entire |complete |full )?(?:[\p{L}'-]+)(?: [\p{L}'-]+)?\b/gu,
    /\b(?:in total|total|all in|all-in|overall|altogether|tops|max|maximum|ceiling|cap|limit|upper limit|ideally)\b/gu,
  ],
  numberAside: [
    // what it covers: "but that has to cover installation too", "it needs to include the poles", "that includes install"
    /(?:\b(?:but|though|and)\s+)?\b(?:that|this|it|which)\s+(?:(?:has|needs|must|should|would have|will have|is supposed)\s+(?:to\s+)?(?:cover|include)|(?:includes|covers|would include|would cover|will include|will cover))\s+(?:the\s+|our\s+|all\s+)?[\p{L}'-]+(?:\s+(?:and|&)\s+(?:the\s+)?[\p{L}'-]+)?(?:\s+(?:too|as well|also))?\b/gu,
    /\b(?:including|incl|inc|with)[.\u2024]?\s+(?:the\s+|all\s+)?(?:install|installation|labou?r|fitting|shipping|delivery|wiring|poles|fixtures|everything|all|tax|taxes)\b(?:\s+(?:too|as well|also))?/gu,
    /\b(?:install|installation|labou?r|shipping|delivery|everything|tax|taxes)\s+(?:included|incl[.\u2024]?|inclusive)\b/gu,
    // how far it is approved: "not approved yet though", "it's not signed off yet", "pending approval", "still needs sign-off"
    /(?:\b(?:but|though)\s+)?(?:\b(?:it'?s|its|it is|that'?s|thats|that is|is|has)\s+)?\b(?:not|n't)\s+(?:yet\s+|been\s+|fully\s+|officially\s+)*(?:approved|signed off|confirmed)(?:\s+yet)?(?:\s+(?:though|tho))?\b/gu,
    /\b(?:pending|awaiting|subject to)\s+(?:board\s+|final\s+)?(?:approval|sign off|sign-off)\b|\bstill\s+(?:needs|has to be|to be)\s+(?:approved|signed off)\b/gu,
  ],
  estimate: {
    invited: /(?<![\p{L}])(?:ballpark|rough|roughly|estimate|estimated|approximate|approximately|approx|best guess|a guess)(?![\p{L}])/iu,
    guesses: [
      'ish', 'or so', 'give or take', 'ballpark', 'roughly', 'more or less', 'maybe a bit more', 'maybe more', 'a bit more', 'a little more',
      'or more', 'maybe less', 'a bit less', 'perhaps', 'probably', 'possibly', 'might', 'i guess', 'guess', 'i think', 'think', 'i reckon',
      'reckon', 'maybe', 'depends', 'depending', 'hopefully', 'if', "it's worth it", 'worth it', 'estimate', 'rough',
    ],
  },
};
