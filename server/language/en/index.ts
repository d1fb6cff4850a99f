import type { LanguagePack } from '../pack.ts';
import { EN_DURATIONS } from './durations.ts';
import { EN_YES_NO } from './yes-no.ts';
import { EN_SPOKEN } from './spoken.ts';
import { EN_LEFTOVERS } from './leftovers.ts';
import { EN_TEXT } from './text-words.ts';
import { EN_DATES } from './dates.ts';
import { EN } from './lexicon.ts';
import { EN as MESSAGES } from './messages.ts';
import { EN_NUMBERS } from './numbers.ts';
import { EN_PARSER } from './parser-messages.ts';
import { EN_CORRECTIONS, EN_NAMES, EN_OPTIONS } from './phrases.ts';
import { EN_OPTION_MEANING } from './option-meaning.ts';
import { findWordNumbers } from './word-numbers.ts';
import { isEnglishWord } from './dictionary.ts';

/** English: everything the offline rules and the bot know about the language. */
export const en: LanguagePack = {
  code: 'en',
  region: null,
  isWord: isEnglishWord,
  lexicon: EN,
  messages: MESSAGES,
  say: EN_PARSER,
  numbers: EN_NUMBERS,
  wordNumbers: findWordNumbers,
  formatNumber: (value) => String(value), // English keeps the plain form the rules always wrote
  dates: EN_DATES,
  corrections: EN_CORRECTIONS,
  names: EN_NAMES,
  options: { ...EN_OPTIONS, meaning: EN_OPTION_MEANING },
  text: EN_TEXT,
  leftovers: EN_LEFTOVERS,
  spoken: EN_SPOKEN,
  yesNo: EN_YES_NO,
  carried: { lead: ['the', 'its', "it's", 'it’s'], inName: ['of', 'and', '&'], self: ['i', 'we'] },
  durations: EN_DURATIONS,
  capitalNouns: false,
  negatedYesIsNeither: false,
  // a bare "no" to an optional question whose prompt invites a skip (server/extract/offline/offline-extractor.ts, rule 2)
  declineRule: {
    invites: /\b(?:skip|if not|if none|if any|if you have one|if applicable|optional|leave (?:it )?blank)\b/i,
    bareNo: /^[\s,.!]*(?:(?:no|nope|nah)[\s,.!]*(?:(?:that['’]?s|that is) (?:all|it|everything)|nothing (?:else|more))|no|none|nope|nah|nothing|nothing else|nothing more|(?:that['’]?s|that is) (?:all|it|everything)|all good|no thanks|no thank you|not really)(?:[\s,.!]+(?:no rush|no hurry|no deadline))?(?:[\s,.!]+(?:thanks|thank you|cheers|thx))?[\s,.!]*$/i,
  },
  phoneCountries: {
    words: {
      'swiss': 'CH', 'switzerland': 'CH', 'austria': 'AT', 'austrian': 'AT', 'german': 'DE', 'germany': 'DE', 'british': 'GB', 'uk': 'GB',
      'england': 'GB', 'scotland': 'GB', 'wales': 'GB', 'canada': 'CA', 'canadian': 'CA', 'mexico': 'MX', 'mexican': 'MX', 'ireland': 'IE', 'irish': 'IE',
      'france': 'FR', 'french': 'FR', 'spain': 'ES', 'spanish': 'ES', 'italy': 'IT', 'italian': 'IT', 'australia': 'AU', 'australian': 'AU',
    },
    neighbours: [],
  },
  otherChannel: {
    phone: /\b(?:just (?:call|ring|phone)|no e-?mail|(?:don['’]?t|do not) (?:have|use) (?:an? )?e-?mail|call(?:ed|ing)?\s+me|give me a (?:call|ring)|a (?:phone )?call|ring me|phone me|text me|by (?:tele)?phone|over the phone|via phone|on the phone|phone (?:is|'s|would be) (?:better|easier|best|fine)|(?:prefer|rather)\b.*\b(?:call(?:ed)?|phoned?|ring|rang)|(?:call|phone)\b.*\b(?:instead|rather|better|only))\b/i,
    email: /\b(?:no (?:phone|calls)|(?:don['’]?t|do not) call|e-?mail me|by e-?mail|via e-?mail|over e-?mail|e-?mail (?:is|'s|would be) (?:better|easier|best|fine)|(?:prefer|rather)\b.*\be-?mail|e-?mail\b.*\b(?:instead|rather|better|only))\b/i,
  },
  // "she's 35", "I am 41", "aged 9", "age: 35", "35 years old", "35 yo"; not "she's 35 weeks", "I'm 5 foot"
  age: /\b(?:(?:i['’]?m|i am|she['’]?s|she is|he['’]?s|he is|they['’]?re|they are|aged?:?)\s+(\d{1,3})(?![\d'’]|[.,]\d|\s*(?:weeks?|wks?|months?|days?|kg|kilos?|lbs?|pounds|stone|st|cm|m|ft|foot|feet|in|inches|%|percent|minutes?|mins?|hours?|degrees?|°))(?:\s*(?:years?|yrs?)(?:\s*old)?)?|(\d{1,3})\s*(?:years?|yrs?)[\s-]*old|(\d{1,3})\s*y\/?o)\b/i,
};
