import type { Lexicon } from '../lexicon.ts';

/** English: the lists the offline rules were written with (their tests and the eval set pin them). */
export const EN: Lexicon = {
  skip: [
    'skip', 'skip it', 'skip this', 'pass', "i'll pass", 'i will pass', "i don't know", 'i do not know', "don't know",
    'dont know', 'i dont know', 'dunno', 'i dunno', 'idk', 'no idea', 'not sure', "i'm not sure", 'unsure', 'no clue',
    'rather not say', "i'd rather not say", "i'd rather not", 'rather not', 'prefer not to say', 'i prefer not to say',
    "i'd prefer not to say", 'prefer not to answer', "i'd prefer not to", 'no comment', "can't say", 'cannot say',
    'not telling', 'none of your business', 'next question', 'n/a', 'not applicable',
    'rather not name', "i'd rather not name", 'not saying', 'not saying yet',
    "can't say yet", 'cannot say yet', "can't tell you yet", 'confidential', "it's confidential", 'its confidential', "that's confidential",
    'not at liberty to say',
    // a name withheld: "anonymous" is no name
    'anonymous', 'anon', 'stay anonymous', 'remain anonymous', "i'd rather stay anonymous", 'rather stay anonymous', 'prefer to stay anonymous', 'prefer to remain anonymous',
    'rather not give', "i'd rather not give", 'rather not share', "i'd rather not share", 'prefer not to give', 'prefer not to share', "i'd prefer not to give", "i'd prefer not to share",
  ],
  refuse: ['rather not', 'prefer not', 'pass', "i'll pass", 'not telling', 'no comment', 'none of your business', 'not saying', 'decline', 'skip',
    "don't want to", 'dont want to', 'do not want to', "don't wanna", 'dont wanna', 'keep that private', 'keep it private', 'keep that to myself',
    'keep it to myself', 'not comfortable'],
  refuseWith: ['want', 'wanna', 'would', "i'd", 'id', 'like', 'say', 'share', 'sharing', 'saying', 'tell', 'give', 'giving', 'answer', 'disclose', 'that',
    'it', 'this', 'one', 'on', 'lol', 'rather', 'prefer', 'keep', 'private', 'with', 'though', 'info'],
  askBack: [
    'what do you mean', 'not sure what you mean', "don't know what you mean", 'dont know what you mean', 'what does that mean',
    "i don't understand the question", 'i dont understand the question', "don't understand the question", 'what are you asking',
    'what is that', "what's that", 'meaning what', 'like what', 'such as', 'huh', 'pardon', 'come again', 'sorry what',
    // why it is asked ("why do you need all that, just send a tech", "why does that matter"): the question again
    'why do you need', 'why do u need', 'why u need', 'why do ya need', 'why do you want to know', 'why do u want to know', 'what do u mean', 'wdym', 'why would you need', 'why does that matter', 'why does it matter', 'why is that needed',
    'why is that important', 'why do you ask', "what's it to you", 'whats it to you', 'what do you need that for', 'what do you need it for',
    // a word of the question asked about ("define unsafe", "what do you mean by loose?"): the question again
    'define', 'what do you mean by', 'what counts as', 'what does it mean', 'meaning of', 'in what way', 'in what sense', 'how so', 'like how',
    // where to find what is asked ("no idea, where would I find that?"): the question again (its prompt says where), not a skip
    'where do i find', 'where would i find', 'where can i find', 'where do i look', 'where would that be', 'where is it', "where's it",
    'where is that', "where's that", 'where does it say', 'where is it printed', 'where is that printed',
    // whether the question must be answered at all ("is that required?", "do I have to say?"): the question again, no skip
    'is that required', 'is this required', 'is it required', 'is that mandatory', 'is this mandatory', 'is it mandatory', 'is that necessary',
    'is this necessary', 'do i have to say', 'do i have to answer', 'do i have to tell you', 'do i need to say', 'do i need to answer',
    'do i have to fill that in', 'do i have to give that', 'do i need to give that', 'do you need that', 'do you really need that',
  ],
  skipFiller: [
    'sorry', 'honestly', 'really', 'um', 'umm', 'uh', 'hmm', 'erm', 'well', 'so', 'oh', 'ah', 'ok', 'okay', 'please',
    'thanks', 'thank', 'you', 'i', "i'm", 'im', 'am', 'my', 'our', 'your', 'just', 'for', 'now', 'this', 'that', 'one', 'it', 'question',
    'yet', 'actually', 'to', 'be', 'tbh', 'but', 'the', 'answer', 'on', 'at', 'moment', 'right', 'no', 'say', 'can',
    "let's", 'lets', 'we', 'afraid', 'quite', 'very', 'yeah', 'nope', 'sadly', 'unfortunately', 'either',
    'number', 'details', 'out', 'it', 'point', 'stage', 'thx', 'ty', 'cheers',
  ],
  human: [
    'talk to a human', 'speak to a human', 'talk with a human', 'speak with a human', 'talk to a person',
    'speak to a person', 'talk with a person', 'speak with a person', 'talk to someone', 'speak to someone',
    'talk to a real', 'speak to a real', 'real person', 'real human', 'actual person', 'actual human', 'live person',
    'live agent', 'human agent', 'human please', 'a human being', 'agent please', 'talk to an agent',
    'speak to an agent', 'speak with an agent', 'connect me to an agent', 'get me an agent', 'talk to a representative',
    'speak to a representative', 'representative please', 'operator please', 'transfer me to someone',
    'need a human', 'want a human', 'need a person', 'want a person', 'need an agent', 'want an agent',
  ],
  yes: [
    'yes', 'yeah', 'yea', 'ya', 'yep', 'yup', 'y', 'sure', 'sure thing', 'correct', 'of course', 'true',
    'absolutely', 'definitely', 'certainly', 'indeed', 'affirmative', "that's right", 'that is right',
    'right', 'ok', 'okay', 'i do', 'we do', 'i am', 'we are', 'please do', 'go ahead', 'sounds good',
    'yes please', 'no problem', 'no worries', '👍', '✅',
  ],
  no: [
    'no', 'nope', 'nah', 'n', 'false', 'not really', 'never', 'negative', 'no thanks', 'no thank you',
    'not at all', "i don't", 'i do not', "we don't", 'we do not', "i'm not", 'i am not', "we're not",
    'incorrect', 'wrong', 'not right', 'of course not',
    'absolutely not', 'definitely not', 'certainly not', 'no way', 'not yet', '👎', '❌',
    // a soft no: "I don't think so" is how a no is often said
    "i don't think so", 'i dont think so', "don't think so", 'dont think so', 'i do not think so', "i don't believe so", "don't believe so", 'dont believe so',
  ],
  neither: [
    'not sure', "i'm not sure", 'unsure', 'maybe', 'perhaps', 'no idea', "don't know", 'do not know',
    'dont know', 'not certain', 'it depends', 'depends', 'yes or no', 'yes and no', 'n/a',
    // a half yes ("yes, but only partly", "sort of"): asked about, never read as yes
    'kind of', 'kinda', 'sort of', 'sorta', 'partly', 'partially', 'in part', 'in a way', 'half', 'somewhat',
    'more or less', 'to some extent', 'not entirely', 'not completely', 'not fully', 'not all', 'not all of them',
    'some of them', 'only some', 'but only', 'only partly', 'sometimes',
    // a condition ("only when I cough") and an intolerance ("lactose intolerant" is no allergy): neither a yes nor a no
    'only when', 'only if', 'just when', 'intolerant', 'intolerance',
  ],
  // English options are matched with the regex in server/extract/parse/enum.ts (same words, plus clause rules)
  declines: ['no', 'nope', 'nah', 'none', 'nothing', 'nothing else', 'nothing more', "that's all", 'that is all', "that's it", "that's everything", 'that is everything', 'thats all', 'thats it', 'thats everything', 'all good', 'no thanks', 'no thank you', 'not really',
    // "nah i'm good", "we're all set": the speaker needs nothing more
    "i'm good", 'im good', "i'm fine", 'im fine', "i'm ok", 'im ok', "i'm okay", 'im okay', "i'm all good", 'im all good', 'all set', "i'm all set", 'im all set',
    "we're good", "we're fine", "we're all set", 'were all set', "that's fine", 'thats fine', 'all fine', 'nothing to add', 'nothing to report', 'nothing further', 'good thanks'],
  invitesSkip: ['skip', 'if not', 'if none', 'if any', 'if you have one', 'if applicable', 'optional', 'leave blank', 'leave it blank'],
  negators: ['not', 'no', "don't", 'dont', 'do not', 'never', 'without', "isn't", "aren't", 'nor', 'except', 'instead of', 'rather than', 'other than'],
  joiners: ['and', 'or', 'plus', 'as well as', 'along with', 'and also', 'or maybe', 'and maybe'],
  conjunctions: { and: ['and'], or: ['or'], but: ['but'] },
  both: ['both'],
  alsoAfter: ['too', 'as well', 'also'],
  joinFiller: ['that', "that's", 'thats', 'this', 'it', "it's", 'its', 'i', "i'm", 'im', 'we', "we're", 'they', 'the', 'a', 'an', 'so', 'then', 'please', 'pls', 'thanks', 'thank', 'yes', 'yeah', 'ok', 'okay', 'not', 'no', 'nothing', 'um', 'uh'],
  filler: ['a', 'an', 'the', 'and', 'or', 'so', 'ok', 'okay', 'yes', 'yeah', 'yep', 'sure', 'um', 'umm', 'uh', 'er', 'erm', 'hmm', 'well', 'oh', 'ah', 'hi', 'hey', 'hello',
    'please', 'pls', 'thanks', 'thank', 'you', 'cheers', 'i', "i'm", 'im', 'me', 'my', 'we', "we're", 'were', 'our', 'us', 'it', "it's", 'its', 'is', 'are', 'was', 'be', 'will', 'would',
    'that', "that's", 'thats', 'this', 'there', "there's", 'about', 'around', 'roughly', 'approximately', 'approx', 'approx.', 'ca', 'circa', 'maybe', 'probably', 'think', 'guess',
    'believe', 'say', 'like', 'just', 'only', 'exactly', 'precisely', 'at', 'least', 'most', 'max', 'maximum', 'min', 'minimum', 'of', 'in', 'on', 'for', 'to', 'by', 'with', 'total',
    'altogether', 'in total', 'all', 'have', 'has', 'got', "we've", "i've", 'need', 'want', 'looking', 'budget', 'number', 'is', 'be', 'should', 'do', 'does', 'please', 'ideally', 'hopefully', 'right', 'now', 'currently', 'answer', 'mine', 'ours', 'here', 'sir', 'madam', 'lol', 'haha', 'plz', 'thx', 'ta', 'great', 'fine', 'good',
    'i\'d', 'id', 'we\'d', 'love', 'could', 'can', 'if', 'possible', 'really', 'definitely', 'certainly', 'absolutely', 'honestly', 'actually', 'she', 'he', 'they', 'her', 'his', 'their', 'born', 'years', 'year', 'yrs', 'old', 'aged', 'degrees', 'degree', 'minus', 'euro', 'euros', 'eur', 'dollar', 'dollars', 'usd', 'bucks', 'percent', 'of', 'us', 'them', 'check', 'out', 'go', 'with', 'please', 'thank you',
    'been', 'being', 'had', 'having', 'did', 'done', 'get', 'gets', 'getting', 'am', 'as', 'an', 'also', 'too', 'very', 'quite', 'bit', 'little', 'lot', 'lots', 'really', 'since', 'then', 'than', 'but', 'which', 'what', 'who', 'when', 'where', 'your', 'yours', 'him', 'them', 'these', 'those', 'any',  'much', 'many', 'more', 'less', 'from', 'into', 'up', 'down', 'off', 'over', 'here', 'there', 'today', 'yet', 'already', 'still', 'hi', 'hey', 'hello', 'morning', 'afternoon', 'evening', 'dear', 'feel', 'feels', 'feeling', 'felt'],
};
