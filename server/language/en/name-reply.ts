import { commonWords } from '../common-words.ts';
import type { NameReplyWords } from '../pack.ts';

// How English replies at a name question are read (server/extract/offline/name-reply.ts). Lower case.

/** Given names that stopwords-iso lists as common words; they stay names. */
const GIVEN = ['will', 'may', 'bill', 'don', 'jo', 'mo', 'ed', 'long', 'young', 'case', 'best', 'little', 'small', 'page', 'mark', 'june', 'april', 'august', 'rose', 'grace', 'hope', 'joy', 'sue', 'ben', 'pat', 'ray', 'guy', 'drew', 'dean', 'max', 'sam', 'lee', 'kim', 'ann', 'al', 'mia', 'ella', 'van', 'bin', 'ma', 'li', 'wu', 'yu', 'ho', 'ng', 'xu', 'hu', 'su', 'ko', 'lo', 'bo', 'le'];

/** English words for reading a reply at a name question. */
export const EN_NAME_REPLY: NameReplyWords = {
  self: /^(?:my (?:full |legal |first )?name(?:['’]s| is| would be)|(?:the )?name(?:['’]s| is)|i am|i['’]m|im|this is|it is|it['’]s|its|call me|you['’]re (?:chatting|speaking|talking) (?:with|to)|you are (?:chatting|speaking|talking) (?:with|to)|(?:chatting|speaking|talking) (?:with|to)|with)\s+/u,
  third: /^(?:(?:his|her|their|the patient['’]s|the child['’]s|my (?:son|daughter|child|kid|husband|wife|partner)['’]s) (?:full |legal |first )?name(?:['’]s| is)|(?:he|she|they)(?:['’]s|['’]re| is| are) (?:called|named)|(?:he|she)['’]s|(?:he|she) is|(?:he|she|it) goes by|(?:the )?patient is|called|named)\s+/u,
  signOff: /\s+(?:here|speaking|on the line)[\s.!]*$/u,
  trailer: /\s+(?:is|['’]s) (my|his|her|their) (?:full |legal |first )?name[\s.!]*$/u,
  company: /^(?:from|at|@|with|of|over at|here at)\s+\S/u,
  // Filipino English "po"/"opo" (respect), chat abbreviations and thanks after a name
  polite: /^(?:(?:po|opo|btw|ty|tysm|thx|tnx|pls|plz|please|thanks|thank you|cheers|sir|ma['’]?am)(?:\s+|$))+$/u,
  nowAfter: /^(?:now|these days|nowadays|since (?:the wedding|(?:i|we|she|he) got married)|after (?:the wedding|marriage|the divorce))$/u,
  nameParts: {
    family: /^(?:the )?(?:family|last|sur)\s?name (?:is |comes |goes )?first$|^(?:(?:the|my|his|her|their) )?(?:family|last|sur)\s?name(?:['’]s| is|:| =)?\s+([\p{L}'’-]+)$|^([\p{L}'’-]+) (?:is|=) (?:the |my |his |her |their )?(?:family|last|sur)\s?name$/u,
    given: /^(?:(?:the|my|his|her|their) )?(?:first|given|christian)(?:\s?name)?(?:['’]s| is|:| =)?\s+([\p{L}'’-]+)$|^([\p{L}'’-]+) (?:is|=) (?:the |my |his |her |their )?(?:first|given)\s?name$/u,
  },
  nameTalk: /(?<![\p{L}])(?:name|names|surname|spelled|spelt|spelling|spell|initial|initials|called|nickname|maiden|hyphen|hyphenated|apostrophe|goes by|go by)(?![\p{L}])/u,
  lead: /^(?:(?:it['’]?s |its )?me again|po|opo|(?:hi|hello|hey) again|um+|uh+|erm?|hmm+|well|so|ok|okay|oh|ah+|aha|sure|yes|yeah|yep|right|alright|all right|then|fine|ok fine|okay fine|ugh|anyway|lol|haha+|ha|oops|whoops|sorry|my bad|i see|got it|(?:i )?forgot(?: to say)?|hi|hello|hey|hiya|morning|good (?:morning|afternoon|evening)|of course|certainly|(?:kind |best |warm )?regards|cheers|thanks|thank you|best wishes|sincerely|yours truly)(?![\p{L}])[\s,.!]*/u,
  nickname: /^(?:but\s+)?(?:please\s+)?(?:call me|i go by|goes by|go by|known as|aka|a\.k\.a\.?|everyone calls (?:me|him|her)|prefers|nickname|preferred name)(?![\p{L}])/u,
  statement: /^(?:i|i['’]m|im|i['’]ve|ive|i have|i got|we|we['’]re|we['’]ve|she|she['’]s|shes|he|he['’]s|hes|they|they['’]re|theyre)\s+\S/u,
  born: /^(?:born|b\.|dob|d\.o\.b\.?|date of birth)(?![\p{L}])/u,
  me: new Set(['me', 'myself', 'i']),
  mine: new Set(['my', 'our']),
  determiners: new Set(['his', 'her', 'their', 'the', 'a', 'an', 'your', 'its']),
  relations: new Set([
    'mom', 'mum', 'mother', 'mommy', 'mummy', 'mama', 'dad', 'daddy', 'father', 'papa', 'parent', 'parents', 'stepmom', 'stepmum',
    'stepmother', 'stepdad', 'stepfather', 'grandma', 'grandmother', 'granny', 'gran', 'nan', 'nana', 'grandpa', 'grandfather',
    'grandad', 'granddad', 'grandparent', 'husband', 'wife', 'spouse', 'partner', 'fiance', 'fiancé', 'fiancée', 'boyfriend',
    'girlfriend', 'son', 'daughter', 'child', 'kid', 'brother', 'sister', 'sibling', 'aunt', 'auntie', 'uncle', 'cousin', 'niece',
    'nephew', 'friend', 'neighbor', 'neighbour', 'roommate', 'flatmate', 'housemate', 'carer', 'caregiver', 'guardian', 'foster',
    'legal', 'step', 'in-law', 'mother-in-law', 'father-in-law', 'sister-in-law', 'brother-in-law', 'son-in-law',
    'daughter-in-law', 'godmother', 'godfather', 'nanny', 'babysitter', 'relative', 'family', 'best', 'close', 'ex', 'older',
    'younger', 'big', 'little', 'twin', 'grandson', 'granddaughter', 'boss', 'colleague', 'coworker', 'co-worker',
  ]),
  relationAs: { mom: 'mother', mum: 'mother', mommy: 'mother', mummy: 'mother', mama: 'mother', dad: 'father', daddy: 'father', papa: 'father', grandma: 'grandmother', granny: 'grandmother', gran: 'grandmother', nan: 'grandmother', nana: 'grandmother', grandpa: 'grandfather', grandad: 'grandfather', granddad: 'grandfather', stepmom: 'stepmother', stepmum: 'stepmother', stepdad: 'stepfather', auntie: 'aunt' },
  roles: new Set([
    'manager', 'owner', 'director', 'caretaker', 'secretary', 'treasurer', 'chairman', 'chairwoman', 'chair', 'chairperson',
    'president', 'coach', 'groundsman', 'groundskeeper', 'administrator', 'admin', 'receptionist', 'facilities', 'facility',
    'head', 'ceo', 'cfo', 'coo', 'cto', 'founder', 'cofounder', 'co-founder', 'committee', 'officer', 'coordinator',
    'supervisor', 'engineer', 'electrician', 'contractor', 'consultant', 'architect', 'buyer', 'procurement', 'assistant',
    'principal', 'headteacher', 'teacher', 'staff', 'employee', 'operator', 'proprietor', 'janitor', 'custodian', 'maintenance',
    'technician', 'trustee', 'volunteer', 'club', 'council', 'school', 'company', 'department', 'office', 'venue', 'centre',
    'center', 'estates', 'operations', 'sales', 'nurse', 'doctor', 'physician', 'therapist', 'gm', 'pa', 'rep',
    'representative', 'agent', 'member', 'landlord', 'landlady', 'steward', 'warden', 'organiser', 'organizer',
    'ad', 'dept', 'worker', 'caseworker', 'aide', 'counselor', 'counsellor', 'pastor', 'priest', 'minister', 'sponsor',
  ]),
  titles: new Set(['dr', 'mr', 'mrs', 'ms', 'miss', 'mx', 'prof', 'professor', 'sir', 'dame', 'rev', 'reverend', 'fr', 'lady', 'lord']),
  courtesy: new Set(['mr', 'mrs', 'ms', 'miss', 'mx']),
  relationIs: /^(?:(?:he|she|they)(?:['’]s|['’]re| is| are)|that(?:['’]s| is| would be))\s+/u,
  legal: /^(?:(?:well|but|actually|and)\s+)?(?:(?:my|his|her|their|the)\s+)?(?:legal(?:ly)?|official(?:ly)?)(?:\s+name)?(?:\s+is|['’]s|:|\s+it['’]?s|\s+its|\s+it is)?\s+(.+?)$|^(?:(?:well|but|actually)\s+)?(.+?)\s+(?:legally|officially|on paper(?:s|work)?|on (?:the )?paperwork|on (?:his|her|my|the|their) (?:id|passport|card|papers|paperwork|documents|forms|license|licence|birth certificate|insurance)|for (?:official|legal) (?:stuff|things|purposes|forms))$/u,
  particles: new Set(['van', 'von', 'der', 'den', 'de', 'del', 'della', 'di', 'da', 'du', 'la', 'le', 'dos', 'das', 'ten', 'ter', 'bin', 'ibn', 'al', 'el', 'st', 'y', 'zu', 'mac']),
  given: GIVEN,
  common: () => commonWords('en', GIVEN),
  asks: {
    name: /\byour (?:full |first |last |legal |own )?name\b|\bwho am i (?:chatting|speaking|talking) (?:with|to)\b|\bwho(?:['’]s| is) (?:this|speaking)\b|\bwhat should (?:i|we) call you\b|\bwhat(?:['’]s| is) the name of the (?:patient|parent|guardian|child|person|contact)\b|\bname of the (?:patient|parent|guardian|child|person)\b|\b(?:patient|child|parent|guardian)['’]s (?:full |first |last |legal )*name\b/u,
    full: /\bfull (?:legal )?name\b|\bfirst and last name\b|\blegal name\b/u,
    subject: /\b(?:patient|child|student)['’]s (?:full |first |last |legal )*name\b|\bname of the (?:patient|child|student)\b/u,
    relation: /\brelationship\b|\brelated\b|\brelation\b/u,
  },
  say: {
    notAName: "Sorry, I need a name here.",
    fullName: 'Could I have the full name, first and last?',
    relation: 'Please give their name and how they are related, for example “Maria Lopez, sister”.',
    someoneElse: 'That should be someone other than you.',
    notYours: "Thanks — that's your own name.",
    otherPerson: "Thanks — that's someone else's name.",
  },
};
