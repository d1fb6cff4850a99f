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
  estimate: {
    invited: /(?<![\p{L}])(?:ballpark|rough|roughly|estimate|estimated|approximate|approximately|approx|best guess|a guess)(?![\p{L}])/iu,
    guesses: [
      'ish', 'or so', 'give or take', 'ballpark', 'roughly', 'more or less', 'maybe a bit more', 'maybe more', 'a bit more', 'a little more',
      'or more', 'maybe less', 'a bit less', 'perhaps', 'probably', 'possibly', 'might', 'i guess', 'guess', 'i think', 'think', 'i reckon',
      'reckon', 'maybe', 'depends', 'depending', 'hopefully', 'if', "it's worth it", 'worth it', 'estimate', 'rough',
    ],
  },
};
