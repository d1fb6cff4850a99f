// Near misses of flow triggers: words that put an emergency word at a distance — it is named, not happening. A
// trigger's hit does not count when, in its clause (not past a conjunction that starts a predicate of its own, as
// with negation), it stands
//  - after a question about information: "what should I do if he has a seizure", "what to do if a child swallows a
//    battery", "in case of an allergic reaction", "how long can a seizure last", "the difference between a seizure and" —
//    not when its clause says it is now ("what should I do if he is having a seizure right now");
//  - after paperwork about it: "a letter about my epilepsy", "a form for my asthma", "an action plan for his anaphylaxis" (a
//    note or letter only when asked for or a doctor's, sick or school one: "wrote letters to my family about ending my life"
//    is no paperwork);
//  - after a history: "hx of", "history of", "family history of", or a relative's past told as family history ("my
//    aunt had anaphylaxis", "both my parents had heart attacks") — only when the clause says nothing is happening now
//    ("just", "now", "minutes ago", "still"…) and the message reads as history (an age at the time, "both", "died",
//    "risk", "runs in", "tested", "checkup"…): "my dad had a seizure" alone may be today's and still counts;
//  - after a refill or a renewal: "refill of my", "ran out of my", "renewing his";
//  - or right before a noun that makes it a condition or a service, not an event: "seizure disorder", "seizure rescue
//    meds", "chest pain clinic", "stroke rehab", "anaphylaxis plan", "heart attack risk", or "… runs in the family";
//  - or right before words saying it is fine: "breathing is fine", "breathing ok", "lips look normal".
// An emergency said beside them, in a clause or predicate of its own, still counts ("what are the signs of a stroke?
// his face is drooping"; "I need a letter for my epilepsy but she's fitting now"). The words are English, as are the
// shipped flows' trigger lists.

/** A hit: [start, end) in the text. */
export interface HitSpan { start: number; end: number }

/** Lower case, apostrophes dropped, dashes and slashes as spaces, spaces collapsed. */
const plain = (s: string): string => s.toLowerCase().replace(/[\u2018\u2019\u02bc']/g, '').replace(/[-_/]/g, ' ').replace(/\s+/g, ' ');

/** A possessive or determiner that may stand between a paperwork or refill word and what it is about. */
const DET = String.raw`(?:my|his|her|their|our|your|the|a|an|this|that|own|recent|previous|ongoing|suspected|current|(?:son|daughter|dad|mum|mom|husband|wife|partner|child|kid|baby|brother|sister|father|mother|grandad|grandma|nan|gran|family|children)s)`;

/** Questions about information, before the hit: hypothetical ("what should I do if"), or asking to learn. */
const INFO = new RegExp(String.raw`\b(?:what\s+(?:should|do|would|can|could|shall|must)\s+(?:i|we|you|one|they|parents|people)\s+do\s+(?:if|when|in case)|what\s+to\s+do\s+(?:if|when|in case)|what\s+(?:happens|would happen|will happen)\s+(?:if|when)|how\s+(?:do|would|can|could|should|will)\s+(?:i|we|you|one)\s+(?:know|tell|spot|recogni[sz]e)|just\s+in\s+case|in\s+case|incase|in\s+the\s+event|if\s+(?:\p{L}+\s+)?ever|(?:difference|differences)\s+between|how\s+long\s+(?:can|could|does|do|will|should|before)|(?:tell|teach|show)\s+(?:me|us)\s+about|(?:information|info|leaflet|leaflets|advice)\s+(?:on|about|for|regarding)|(?:learn|read|read up)\s+(?:about|on))\b(?:\s+\S+){0,8}\s*$`, 'u');

/**
 * Paperwork about the hit: a document, at most three words, a preposition, at most three possessives. A note or a letter
 * counts only when it is asked for ("need a letter about", "get a note for") or is a doctor's, sick or school one: "I wrote
 * letters to my family about ending my life" and "left a note about killing myself" are no paperwork; nor is a bare "plan"
 * ("a plan for my suicide").
 */
const PAPERWORK = new RegExp(String.raw`(?:\b(?:get|getting|need|needs|needed|want|wants|request|requesting|sign|signing|fill|filling|complete|completing|renew|renewing|update|print)\s+(?:me\s+)?(?:a|an|the|some|my|his|her|their)?\s*(?:\p{L}+\s+)?(?:notes?|letters?)|\b(?:forms?|certificate|cert|paperwork|documentation|care\s+plan|action\s+plan|health\s+plan|emergency\s+plan|treatment\s+plan|report|records|summary|insurance|(?:doctors|sick|fit|medical|school|gp|work|travel)\s+(?:notes?|letters?)))(?:\s+\S+){0,3}?\s+(?:for|about|regarding|re|on|confirming|explaining|mentioning|listing|stating|covering)(?:\s+${DET}){0,3}\s*$`, 'u');

/** A history named before the hit: "hx of", "history of", "family history of". */
const HISTORY = new RegExp(String.raw`\b(?:history\s+of|hx(?:\s+of)?|h\s+o|pmhx?|fhx?(?:\s+of)?|family\s+history(?:\s+of)?)(?:\s+${DET}){0,2}\s*$`, 'u');

/** A refill or renewal of the hit. */
const REFILL = new RegExp(String.raw`\b(?:refills?|refilled|repeat\s+prescription|repeat\s+script|prescription|renew|renewal|renewing|renewed|replace|replacing|replacement|top\s+up|ran\s+out\s+of|run\s+out\s+of|running\s+out\s+of|out\s+of\s+date|expired|reorder)(?:\s+(?:of|for))?(?:\s+${DET}){0,3}\s*$`, 'u');

/** A relative's past told before the hit: "my aunt had", "mum and gran both had", "my grandad died of". */
const RELATIVE_HAD = new RegExp(String.raw`(?:^|\b(?:my|his|her|our|their|the)\s+)(?:dad|father|mum|mom|mother|mam|gran|granny|grandma|grandmother|nan|nana|nanna|grandad|granddad|grandpa|grandfather|grandparents?|parents|aunt|auntie|aunty|uncle|cousins?|sisters?|brothers?|siblings|family|relatives?|great\s+\p{L}+)(?:\s+and\s+(?:my\s+)?\p{L}+)?(?:\s+(?:both|all|also|too|each))?\s+(?:had|has\s+had|have\s+had|have\s+both\s+had|died\s+(?:of|from|after)|passed\s+away\s+(?:from|after)|suffered(?:\s+from)?|suffers\s+from|had\s+a\s+history\s+of)(?:\s+(?:a|an|two|three|several|multiple|his|her|their|bad|big|massive|major|minor|mini))?\s*$`, 'u');

/** Words that tell a clause is about now: a relative's "had" beside them may be today's. */
const NOW = /\b(?:now|just|right now|currently|today|tonight|this morning|this afternoon|this evening|minutes? ago|mins? ago|hours? ago|hrs? ago|an hour ago|still|again|keeps|having)\b/;

/** Words that put a question about information in the present. */
const NOW_SAID = /\b(?:now|right now|at the moment|currently|as we speak|at present)\b/;

/** Words anywhere in the message that make a relative's past read as family history. */
const HISTORY_CUE = /\b(?:at|aged?)\s+\d{2}\b|\bin\s+(?:his|her|their|my|the)\s+(?:\d0s|twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b|\bwhen\s+(?:he|she|they)\s+(?:was|were)\b|\b(?:young|both|all|also|too|died|passed away|risk|genetic|hereditary|inherit\w*|runs|run in|family history|tested|testing|screen\w*|check\s?up|checked|cholesterol|blood pressure|bp|am i|could i|will i|should i|should my|do i need|me too)\b/;

/**
 * Nouns right after a hit that make it a condition or a service ("seizure disorder", "chest pain clinic"), not an event. Not a
 * bare "plan", "letter" or "risk": "a suicide plan", "a suicide letter", "a suicide risk" are the crisis.
 */
const CONDITION_NOUN = /^\s*(?:disorders?|condition|clinic|care\s+plan|action\s+plan|rescue|nurse|specialist|team|consultant|review|management|awareness|training|course|leaflets?|diagnosis|investigations?|appointment|follow\s?up|rehab|rehabilitation|support|group|screening|forms?|certificate|paperwork|history|survivors?|research|charity|prevention|first\s+aid|protocol|policy|bracelet|workup|work\s+up|prophylaxis|runs?\s+in\s+(?:the|my|our|his|her|their)\s+family)\b/;

/** Words right after a hit that say it is fine ("breathing fine", "breathing is ok", "his lips look normal"). */
const SAID_FINE = /^\s*(?:(?:is|are|was|seems|seem|looks|look|feels|feel|sounds|sound)\s+)?(?:fine|ok|okay|normal|normally|good|alright|all right|unaffected)\b/;

/** A hit that says no itself ("not responding", "isnt breathing"): "normally" after it is part of the denial. */
const NEGATED_HIT = /^(?:not|no|isnt|wont|cant|cannot|doesnt|hasnt|arent|wasnt|never)\b/;

/** A negator right before the hit ("is not | responding normally"). */
const NEGATED_BEFORE = /\b(?:not|no|isnt|wont|cant|cannot|doesnt|hasnt|arent|wasnt|never)$/;

/**
 * Whether the hit at [hit.start, hit.end) of `text` is named at a distance — asked about, on paperwork, in a history, a
 * refill, a condition or service, or said to be fine — rather than happening. `from` is where the hit's clause (or predicate) starts,
 * `end` where it ends.
 */
export function distanced(text: string, from: number, hit: HitSpan, end: number): boolean {
  const before = plain(text.slice(from, hit.start)).trim();
  const after = plain(text.slice(hit.end, end));
  // (not when the hit is itself negated: "not responding normally")
  if (CONDITION_NOUN.test(after) || (SAID_FINE.test(after) && !NEGATED_HIT.test(plain(text.slice(hit.start, hit.end))) && !NEGATED_BEFORE.test(before))) return true;
  // a question about information that says it is now is a report ("how do I know if I'm having a heart attack right now")
  if (INFO.test(before) && !NOW_SAID.test(plain(text.slice(from, end)))) return true;
  if (PAPERWORK.test(before) || HISTORY.test(before) || REFILL.test(before)) return true;
  if (RELATIVE_HAD.test(before)) {
    const clause = plain(text.slice(from, end));
    return !NOW.test(clause) && HISTORY_CUE.test(plain(text));
  }
  return false;
}
