// The clarifications the typed parsers write. Each language pack holds its
// own texts (server/language/<code>/parser-messages.ts); English is the text
// the rules were written with (goldens and the eval set pin it); the others
// say the same in the visitor's language, with numbers formatted the local
// way by the caller. A reason not listed here is still written in English.

/** The parameters of a parser's message (numbers already formatted). */
export type MessageParams = Record<string, string | number>;
type Text = (p: MessageParams) => string;

/** The keys of the parsers' messages. */
export type MessageKey =
  | 'typeAnswer' | 'notNumber' | 'notWhole' | 'wholeNumber' | 'tooLarge' | 'between' | 'atLeast' | 'atMost' | 'negatedNumber'
  | 'total' | 'range' | 'notPercent' | 'exactly' | 'moreThanOneNumber' | 'dotOrComma' | 'commaOrThousands' | 'yesOrNo' | 'chooseFrom'
  | 'whichThen' | 'pickOne' | 'or' | 'pickJustOne' | 'pickNumber' | 'notDate' | 'singleDate' | 'noSuchDate' | 'moreThanOneDate'
  | 'datePassed' | 'dateFuture' | 'whichDay' | 'looseDay' | 'onOrAfter' | 'onOrBefore' | 'noSuchDay' | 'whichMonth' | 'whichYear'
  | 'pointsElsewhere' | 'nameIt' | 'codeLike' | 'codeItself' | 'whichCode' | 'otherCode' | 'whichOnes' | 'moreDetail' | 'askedBack' | 'whichAndWhat' | 'whichNow'
  | 'ownQuestion' | 'whatAbout' | 'whichCountry' | 'phoneTooShort' | 'phoneTooLong';

/** Every message a parser can say, in one language. */
export type ParserMessages = Readonly<Record<MessageKey, Text>>;

/** The message of a pack, its parameters filled in (numbers already formatted by the caller). */
export function say(pack: { readonly say: ParserMessages }, key: MessageKey, params: MessageParams = {}): string {
  // a list cut short ends in "…": no full stop after it ("…, Etwas anderes, …." read as a typo)
  return pack.say[key](params).replace(/…\./g, '…');
}
