import type { TextWords } from '../text-words.ts';

/** English: the short-text words (server/language/text-words.ts). */
export const EN_TEXT: TextWords = {
  exampleBefore: ['looks like', 'look like', 'looking like', 'for example', 'for instance', 'e.g.', 'eg', 'such as', 'format', 'formatted like', 'like'],
  pointers: [
    'same as', 'the same as', 'see my', 'see the', 'see attached', 'see above', 'see below', 'see email', 'see previous', 'see earlier',
    'as above', 'as before', 'as per my', 'as per the', 'check my email', 'check the email', 'check your email', 'in my email', 'in the email',
    'it is in the email', "it's in the email", 'i already told you', 'already told you', 'i already said', 'already said', 'told you already',
    'i told you', 'ditto', 'same thing', 'same again', 'same one',
  ],
  pointersAlone: ['like i said', 'as i said', 'as i mentioned', 'as mentioned', 'like i told you', 'as i told you', 'see above', 'above', 'same'],
  privateUse: [
    'private', 'privately', "it's private", 'personal', 'for personal use', 'my garden', 'my back garden', 'our garden', 'our back garden',
    'my backyard', 'my back yard', 'our backyard', 'our back yard', 'back garden', 'backyard', 'my house', 'our house', 'my home', 'our home',
    'at home', 'for myself', 'just me', 'for me', 'my own', 'our own', 'home court', 'private court', 'private project', 'no organisation',
    'no organization', 'not for a club', 'not a club', 'behind the house', 'behind our house', 'behind my house',
  ],
  leadIns: [
    "it's for the", 'it is for the', "it's for", 'it is for', 'this is for the', 'this is for', "that's for", 'the project is for the', 'the project is for',
    "it's with", 'for the', 'for', "we're", 'we are', 'from the', 'from',
  ],
  namedAs: { before: ['the', 'our', 'my', 'their'], verbs: ['is', 'is called', "'s", 'would be', 'name is'], articles: ['the'] },
  selfIntro: ["i'm", 'i am', 'im', "i'm the", 'i work', 'i run', 'i manage', 'my role', 'my job', 'speaking as'],
  vagueWords: [
    'my', 'our', 'the', 'a', 'an', 'his', 'her', 'their', 'its', "husband's", "wife's", "partner's", "dad's", "mum's", "mom's", 'husbands', 'wifes',
    'through', 'via', 'at', 'for', 'from', 'with', 'by', 'just', 'it', "it's", 'is', 'local', 'own', 'one', 'some', 'of', 'it is',
  ],
  vagueNouns: [
    'club', 'council', 'school', 'company', 'business', 'organisation', 'organization', 'team', 'gym', 'city', 'town', 'village', 'church',
    'university', 'college', 'work', 'job', 'employer', 'firm', 'association', 'league', 'community', 'centre', 'center', 'academy', 'venue',
    'facility', 'hall', 'parish', 'government', 'state', 'insurance', 'insurer', 'provider', 'plan', 'union', 'workplace', 'office', 'boss',
    'district', 'county', 'municipality', 'authority', 'trust', 'charity', 'group', 'society',
  ],
  clauseWords: ['is', 'are', 'was', 'were', "it's", 'it', 'we', "we're", 'i', "i'm", 'they', "they're", 'he', "he's", 'she', "she's", 'owns', 'has', 'have', 'had'],
  notGiven: ['can\'t', 'cannot', 'couldn\'t', 'haven\'t', 'hasn\'t', 'didn\'t', 'doesn\'t', 'won\'t', 'lost', 'no idea', 'not on me', 'not with me', 'not to hand', 'not at hand'],
  quantityOnly: ['lots', 'loads', 'lots of them', 'loads of them', 'a lot', 'a lot of them', 'many', 'several', 'a few', 'a couple', 'some', 'plenty', 'tons', 'heaps', 'various', 'too many', 'too many to list', 'quite a few', 'a bunch', 'all sorts'],
  unsure: ['can\'t remember', 'cannot remember', 'can not remember', 'don\'t remember', 'do not remember', 'dont remember', 'cant remember', 'i forget', 'forgot', 'i forgot', 'not sure', 'no idea', 'don\'t know', 'dont know', 'idk', 'dunno', 'no clue', 'not a clue', 'beats me', 'who knows', 'no freaking idea'],
  deferrals: [
    "i'll bring", 'i will bring', 'ill bring', 'will bring', "i'll bring them", "i'll show", 'i will show', "i'll tell", 'i will tell', "i'll send", 'i will send',
    "i'll give", "i'll check", 'i will check', "i'll find out", "i'll ask", 'i will ask', "i'll let you know", 'let you know', 'tell you later',
    "i'll have to check", 'have to check', 'need to check', 'have to ask', 'need to ask', 'ask my', 'handles that', 'handles it', 'handles all that',
    'deals with that', 'deals with it', 'takes care of that', 'takes care of it', 'does that', 'does all that', 'knows that', 'would know',
    'knows', 'has the details', 'has it', 'has that', 'has them', 'in charge of that', 'sorts that out', 'sorts it out', 'look it up', 'find it later', 'get back to you', "i'll get back", 'will get back', 'will check', 'let me check', 'check later', 'off the top of my head',
  ],
  contentFree: [
    'i', "i'm", 'im', "i'll", 'ill', "i've", 'you', 'he', "he's", 'she', "she's", 'it', "it's", 'its', 'they', "they're", 'theyre', 'them', 'we', "we're",
    'that', "that's", 'thats', 'this', 'these', 'those', 'there', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'do', 'does', 'did', 'just', 'really',
    'kind', 'kinda', 'sort', 'sorta', 'of', 'like', 'so', 'well', 'um', 'uh', 'the', 'a', 'an', 'my', 'our', 'his', 'her', 'their', 'your', 'lol',
    'tbh', 'honestly', 'all', 'and', 'or', 'but', 'with', 'me', 'in', 'along', 'later', 'today', 'tomorrow', 'next', 'time', 'when', 'come', 'i come',
    'weird', 'strange', 'odd', 'funny', 'wonky', 'off', 'acting', 'up', 'playing', 'messed', 'whatever', 'stuff', 'things', 'thing', 'anyway', 'though',
    'husband', 'wife', 'partner', 'spouse', 'mom', 'mum', 'mother', 'dad', 'father', 'parents', 'son', 'daughter', 'boss', 'colleague', 'doctor',
    'pharmacy', 'pharmacist', 'office', 'someone', 'somebody', 'else', 'one', 'guy', 'people', 'bottles', 'bottle', 'boxes', 'box', 'packets', 'list',
    'card', 'paperwork', 'papers', 'details', 'info', 'information', 'appointment', 'visit', 'here', 'tell', 'gp', 'nurse', 'chemist', 'specialist', 'name', 'names', 'dose', 'doses', 'on', 'at', 'home', 'house', 'car', 'exactly', 'not', 'now', 'right', 'seem', 'seems', 'seemed', "something's", 'something', 'somethings', 'have', 'has', 'got',
  ],
  abbreviations: ['st', 'mt', 'ft', 'pt', 'dr', 'mr', 'mrs', 'ms', 'mx', 'jr', 'sr', 'prof', 'rev', 'hon', 'gen', 'capt', 'sgt', 'lt', 'col', 'gov', 'sen', 'rep', 'e.g', 'i.e', 'eg', 'approx', 'ca', 'dept', 'univ', 'ave', 'apt', 'bldg', 'vs', 'no+digit', 'nr+digit', 'ext+digit', 'tel+digit'],
  codeWords: ['id', 'number', 'no', 'nr', 'num', 'code', 'ref', 'reference'],
  discourse: [
    'hi', 'hello', 'hey', 'hiya', 'hi there', 'hello there', 'hey there', 'yes', 'yeah', 'yep', 'ok', 'okay', 'so', 'um', 'umm', 'uh', 'er', 'erm', 'hmm', 'well', 'basically', 'so basically',
    'anyway', 'anyways', 'alright', 'oh', 'ah', 'sure', 'found it', 'ok found it', 'here it is', 'here you go', 'got it', 'let me see', 'sorry', 'haha',
    'lol', 'good morning', 'good afternoon', 'good evening', 'morning', 'right so',
  ],
  vagueProblem: [
    'work', 'works', 'working', 'worked', 'broken', 'broke', 'busted', "don't", 'dont', "doesn't", 'doesnt', "won't", 'wont', "isn't", "aren't", 'arent',
    'problem', 'problems', 'issue', 'issues', 'wrong', 'bad', 'faulty', 'fault', 'trouble', 'go', 'going', 'any', 'more', 'anymore', 'properly',
    'again', 'help', 'need', 'needs', 'fix', 'fixing', 'repair', 'something', 'no', 'good', 'still', 'stopped', 'quite', "there's", 'theres', 'there',
  ],
  asksWhich: { which: ['which', 'where'], what: ['what', 'how'] },
};
