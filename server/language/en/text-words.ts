import type { TextWords } from '../text-words.ts';

/** English: the short-text words (server/language/text-words.ts). */
export const EN_TEXT: TextWords = {
  exampleBefore: ['looks like', 'look like', 'looking like', 'for example', 'for instance', 'e.g.', 'eg', 'such as', 'format', 'formatted like', 'like'],
  pointers: [
    'same as', 'the same as', 'see my', 'see the', 'see attached', 'see above', 'see below', 'see email', 'see previous', 'see earlier',
    'as above', 'as before', 'as per my', 'as per the', 'check my email', 'check the email', 'check your email', 'in my email', 'in the email',
    'it is in the email', "it's in the email", 'i already told you', 'already told you', 'i already said', 'already said', 'told you already',
    'i told you', 'ditto', 'same thing', 'same again', 'same one', 'same problem as', 'same issue as', 'same fault as', 'the same problem as',
    'the same issue as', 'same as always', 'same as usual',
  ],
  pointersAlone: [
    'like i said', 'as i said', 'as i mentioned', 'as mentioned', 'like i told you', 'as i told you', 'see above', 'above', 'same',
    // what the visitor takes as known ("the usual", "my regular ones"): it is not on this page
    'the usual', 'my usual', 'usual', 'the usual ones', 'my usual ones', 'the usual stuff', 'my regular ones', 'my normal ones', 'the normal ones', 'as always',
    'same as always', 'same as usual', 'as usual', 'what i always take', 'the ones i always take', 'same problem', 'same issue', 'the same problem',
    'the same issue', 'same problem again', 'same issue again', 'same old problem',
  ],
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
    // someone else holds the answer ("my wife has the list", "my son keeps track of them"): with nothing else of substance beside it
    'has', 'has got', 'keeps', 'keeps track', 'holds', 'is the one who knows', 'would have it', 'would have them', 'handles', 'manages', 'looks after',
    'sorts out', 'organises', 'organizes', 'ask',
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
    // who told or sent the visitor, and what they said, without what it was ("idk the facilities guy just told me to contact you", "my mom said I was
    // allergic to something as a baby")
    'said', 'says', 'say', 'told', 'tells', 'asked', 'asks', 'ask', 'sent', 'send', 'reported', 'mentioned', 'thinks', 'thought', 'reckons', 'suggested',
    'wanted', 'wants', 'contact', 'contacted', 'reach', 'call', 'message', 'log', 'ticket', 'report', 'form', 'to', 'about', 'for', 'from', 'by', 'if',
    'as', 'into', 'some', 'anything', 'what', 'which', 'sure', 'know', 'knew', 'idea', 'whole', 'story', 'baby', 'kid', 'child', 'toddler', 'little',
    'young', 'younger', 'ago', 'years', 'once', 'ever', 'back', 'then', 'growing', 'manager', 'landlord', 'caretaker', 'janitor', 'facilities',
    'maintenance', 'admin', 'secretary', 'receptionist', 'coach', 'teacher', 'principal', 'owner', 'supervisor', 'department', 'dept', 'guys', 'vet',
    'sister', 'brother', 'friend', 'neighbour', 'neighbor', 'grandma', 'grandpa', 'grandmother', 'grandfather', 'aunt', 'uncle', 'carer', 'caregiver',
    'keeps', 'holds', 'track', 'apparently', 'old', 'previous', 'last', 'usual', 'regular', 'pills', 'tablets', 'meds', 'medication', 'medications',
    'medicine', 'medicines', 'prescriptions', 'all', 'everything', 'puppy', 'kitten', 'avoid', 'avoids', 'avoided', 'avoiding', 'stay', 'away',
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
  reportedBy: ['said', 'says', 'told', 'tells', 'reckons', 'reckoned', 'thinks', 'thought', 'mentioned', 'reported', 'suggested', 'wrote', 'asked', 'sent'],
  askWhom: ['ask', 'check with', 'talk to', 'speak to', 'call', 'phone', 'email'],
  unknownWhich: [
    'which', 'which ones', 'which one', 'what', 'what exactly', 'what they are', 'what it is', "what it's called", 'what its called', 'what they are called',
    "what they're called", 'what theyre called', 'the name', 'the names', 'their names', 'its name', 'the names of them', 'the exact names', 'names',
  ],
  asksNeed: [
    'what you need', 'what do you need', 'what you are looking for', "what you're looking for", 'what are you looking for', 'how can we help',
    'how can i help', 'how we can help', 'how i can help', 'what can we do for you', 'what can i do for you', "what it's about", 'what it is about',
    'what this is about', 'your question', 'your questions', 'your request', 'your enquiry', 'your inquiry', 'anything else', 'any questions',
    'what would you like to know', 'what would you like to ask', 'what you would like', "what you'd like",
  ],
  nonDescription: [
    'call', 'calls', 'called', 'calling', 'callback', 'call back', 'ring', 'phone', 'email', 'e-mail', 'contact', 'reach', 'get in touch', 'talk', 'speak',
    'chat', 'someone', 'somebody', 'anyone', 'anybody', 'person', 'rep', 'representative', 'salesperson', 'sales', 'help', 'assistance', 'question',
    'questions', 'query', 'enquiry', 'inquiry', 'info', 'information', 'browsing', 'browse', 'looking around', 'just looking', 'having a look',
    'checking', 'nothing specific', 'nothing in particular', 'curious', 'chatting', 'just chatting', 'chit chat', 'chitchat', 'bored', 'saying hi',
    'saying hello', 'killing time', 'ad', 'ads', 'advert', 'adverts', 'advertisement', 'post', 'facebook',
    'instagram', 'insta', 'google', 'tiktok', 'youtube', 'linkedin', 'twitter', 'website', 'flyer', 'leaflet', 'brochure', 'billboard', 'radio',
    'magazine', 'newsletter', 'word of mouth', 'recommended', 'recommendation', 'referred', 'referral', 'saw', 'seen', 'found', 'heard',
  ],
  aboutService: [
    'warranty', 'guarantee', 'covered', 'cover', 'covers', 'cost', 'costs', 'price', 'prices', 'pricing', 'charge', 'charges', 'fee', 'fees', 'free',
    'pay', 'paid', 'payment', 'refund', 'money', 'invoice', 'bill', 'billing', 'discount', 'complain', 'complaint', 'responsible', 'handles',
    'open', 'hours', 'long', 'take', 'wait', 'technician', 'tech', 'engineer', 'callout', 'call-out', 'visit', 'send', 'come', 'fix', 'fixed',
    'repair', 'repairs', 'service', 'services', 'brand', 'brands', 'model', 'models', 'normal', 'ok', 'okay', 'fine', 'safe', 'bad', 'serious',
    'worry', 'worried', 'urgent', 'count', 'counts', 'include', 'included', 'matter', 'mean', 'necessary', 'required', 'company', 'guys', 'deal',
    'asap', 'soon', 'quickly', 'today', 'tomorrow', 'contact', 'talk', 'speak', 'call', 'opening', 'use', 'using', 'used', 'keep', 'keeping', 'deposit',
    'cancel', 'cancellation', 'terms', 'book', 'booking', 'bring', 'allowed',
  ],
  questionForm: {
    aux: [
      'is', 'are', 'was', 'were', 'am', 'can', 'could', 'do', 'does', 'did', 'will', 'would', 'should', 'shall', 'may', 'might', 'must', 'have', 'has',
      "isn't", "aren't", "can't", "won't", "don't", "doesn't", "didn't", "wouldn't", "couldn't", "shouldn't", 'isnt', 'arent', 'cant', 'wont', 'dont', 'doesnt',
    ],
    wh: ['who', 'what', 'where', 'when', 'why', 'how', 'which', 'whom', 'whose', 'how much', 'how many', 'how long', 'how soon', "who's", "what's", "where's", "how's", 'whos', 'whats', 'wheres', 'hows'],
    scope: ['count', 'counts', 'matter', 'matters', 'apply', 'qualify', 'included'],
    subjects: ['i', 'you', 'u', 'ya', 'we', 'they', 'he', 'she', 'it', 'this', 'that', 'these', 'those', 'there', 'someone', 'somebody', 'anyone', 'anybody', 'one', 'the', 'a', 'an', 'my', 'your', 'our', 'his', 'her', 'their'],
  },
};
