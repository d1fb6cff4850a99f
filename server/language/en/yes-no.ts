import type { YesNoWords } from '../yes-no-words.ts';

/** English yes/no by content (server/extract/offline/yes-no-content.ts). */
export const EN_YES_NO: YesNoWords = {
  any: ['any', 'anything', 'anyone', 'anybody'],
  none: [
    'none', 'nothing', 'none at all', 'nothing at all', 'none known', 'nothing known', 'none that i know of', 'not that i know of',
    "not that i'm aware of", 'not that im aware of', 'not that we know of', "not that we're aware of", 'not that i can see',
    'not that i can tell', 'nothing like that', 'none of that', 'none of those', 'nothing of the sort', 'nothing of that sort',
    'not anymore', 'not any more', 'no longer', 'nope none', 'none whatsoever', 'nothing whatsoever', 'nothing else', 'none else',
    // not that one recalls: a no as a careful person records it
    'not that i can think of', 'none that i can think of', 'nothing that i can think of', 'nothing i can think of', 'not that i can remember',
    'not that i remember', 'not that i recall', 'not as far as i know', 'not to my knowledge', 'none to my knowledge', 'not that we can think of',
  ],
  many: ['too many to count', 'more than i can list', 'more than i can count', 'a whole list', 'a long list', 'a few things', 'a couple of things', 'quite a lot'],
  anyWords: ['any', 'anything'],
  listJoiners: ['or'],
  negatedJoiners: ['nor'],
  notItems: ['moment', 'including', 'important', 'chance', 'looks', 'could', 'would', 'right', 'currently', 'today'],
  fine: ['fine', 'ok', 'okay', 'good', 'safe', 'secure', 'solid', 'stable', 'normal', 'all right', 'alright', 'not loose', 'intact'],
  neutral: ['new', 'brand new', 'old', 'older', 'replaced', 'redone', 'repaired', 'installed', 'upgraded', 'renewed', 'checked', 'inspected', 'serviced', 'led', 'years old', 'months old', 'looked at', 'normally', 'usually',
    // a fault that is no danger: the light just does not work as it should ("the fixture just stays dark", "just dim")
    'dark', 'stays dark', 'dim', 'dimmer', 'flicker', 'flickers', 'flickering', 'not working', "doesn't work", 'doesnt work', "won't turn on",
    'wont turn on', "won't come on", 'wont come on', "doesn't turn on", 'doesnt turn on', 'not turning on', 'not coming on', 'dead', 'burned out', 'buzzing', 'buzzes'],
  ended: ['no longer', 'anymore', 'any more', 'stopped', 'used to', 'lapsed', 'expired', 'gone', 'went away'],
  kinds: [
    // medicines and supplements: a thing taken, or a medicine one is allergic to
    { names: ['medication', 'medications', 'medicine', 'medicines', 'meds', 'drug', 'drugs', 'supplement', 'supplements', 'prescription', 'prescriptions', 'pills', 'tablets'],
      members: ['meds', 'medication', 'medications', 'medicine', 'pills', 'tablets', 'vitamin', 'vitamins', 'multivitamin', 'multivitamins', 'vitamin d', 'vitamin c', 'vitamin b12',
        'iron', 'fish oil', 'omega 3', 'probiotic', 'probiotics', 'melatonin', 'magnesium', 'zinc', 'calcium', 'folic acid', 'supplement', 'supplements',
        'birth control', 'the pill', 'contraceptive', 'contraceptives', 'tylenol', 'advil', 'motrin', 'aleve', 'ibuprofen', 'paracetamol', 'acetaminophen',
        'aspirin', 'naproxen', 'antibiotic', 'antibiotics', 'amoxicillin', 'penicillin', 'sulfa', 'sulfa drugs', 'codeine', 'morphine', 'opioids',
        'insulin', 'metformin', 'lisinopril', 'amlodipine', 'statin', 'statins', 'atorvastatin', 'levothyroxine', 'thyroid', 'inhaler', 'inhalers',
        'albuterol', 'ventolin', 'antidepressant', 'antidepressants', 'sertraline', 'zoloft', 'prozac', 'fluoxetine', 'adderall', 'ritalin',
        'adhd meds', 'blood pressure', 'blood thinners', 'warfarin', 'steroids', 'prednisone', 'antihistamine', 'antihistamines', 'claritin',
        'zyrtec', 'benadryl', 'allergy pills', 'eye drops', 'nasal spray', 'painkillers', 'pain killers', 'ozempic', 'epipen'] },
    // foods
    { names: ['food', 'foods'],
      members: ['peanut', 'peanuts', 'nuts', 'tree nuts', 'nut', 'shellfish', 'shrimp', 'prawns', 'fish', 'egg', 'eggs', 'milk', 'dairy', 'lactose', 'gluten',
        'wheat', 'soy', 'sesame', 'strawberries', 'kiwi', 'celery', 'mustard', 'almonds', 'cashews'] },
    { names: ['latex'], members: ['latex', 'latex gloves', 'rubber gloves'] },
    // what else people are allergic to: none of the above
    { names: ['environmental', 'seasonal', 'pollen', 'pets', 'animals'],
      members: ['pollen', 'hay fever', 'hayfever', 'seasonal', 'dust', 'dust mites', 'cat', 'cats', 'dog', 'dogs', 'pet dander', 'animals', 'grass', 'mold',
        'mould', 'bee stings', 'bees', 'wasps', 'perfume'] },
    // symptoms, beside a prompt that lists some ("chest pain or trouble breathing")
    { names: ['symptom', 'symptoms'],
      members: ['cough', 'coughing', 'a cold', 'cold', 'runny nose', 'stuffy nose', 'blocked nose', 'sneezing', 'sore throat', 'headache', 'migraine',
        'fever', 'temperature', 'rash', 'earache', 'ear pain', 'stomach ache', 'tummy ache', 'nausea', 'back pain', 'sore back', 'tired', 'tiredness',
        'congestion', 'sniffles', 'flu', 'itch', 'itching'] },
  ],
  only: ['only', 'just', 'merely', 'nothing but'],
  onlyWhen: ['when', 'whenever', 'if', 'while', 'after', 'during'],
  frequency: ['sometimes', 'occasionally', 'now and then', 'now and again', 'every now and then', 'when needed', 'as needed', 'when i need it',
    'when she needs it', 'when he needs it', 'on and off'],
  allFine: ['all fine', 'all good', 'all ok', 'all okay', 'all safe', "everything's fine", 'everything is fine', 'everything fine', "everything's ok",
    'everything is ok', "everything's okay", 'everything okay', "everything's good", 'everything good', 'looks fine', 'looks ok', 'looks okay',
    'looks good', 'seems fine', 'seems ok', 'all seems fine', 'all looks fine', 'everything looks fine', 'everything seems fine', 'all looks good',
    'nothing wrong', "nothing's wrong", 'nothing dangerous', 'looks normal', 'all normal', 'everything normal', 'everything looks normal',
    'everything seems normal', 'seems normal', 'all looks normal', 'nothing unsafe', 'all clear', 'perfectly safe', 'totally safe'],
  rulesOut: [
    { topic: ['pregnan'],
      facts: ["i'm a guy", 'im a guy', 'i am a guy', "i'm a man", 'im a man', 'i am a man', "i'm male", 'im male', 'i am male', 'male', 'a boy', 'a guy',
        'a man', 'my son', 'his', "he's", 'he is', 'hes', 'him', 'hysterectomy', 'tubes tied', 'tubal ligation', 'vasectomy', 'menopause', 'menopausal',
        'post menopausal', 'postmenopausal', 'post-menopausal', 'sterilized', 'sterilised', 'not possible', 'impossible', 'no chance'],
      age: /(?:^|\s)(?:she|he|they)(?:'s|s| is| are)\s+(?:only\s+|just\s+)?(\d{1,2})(?:\s*(?:years?|yrs?|yo)(?:\s+old)?)?\s*$/u, under: 10 },
  ],
  precautions: ['taped off', 'taped it off', 'taped the area off', 'taped that off', 'cordoned off', 'cordoned it off', 'fenced off', 'fenced it off', 'closed off', 'closed the court', 'closed the area', 'keeping people away', 'kept people away', 'keeping everyone away', 'keeping the kids away', 'nobody goes near'],
  alike: [['wiring', 'wire', 'wires', 'cable', 'cables', 'cabling'],
    // a thing that could fall: loose, leaning, hanging, tilted; sparking: a burning smell, smoke
    ['fall', 'falling', 'fallen', 'loose', 'leaning', 'wobbly', 'wobbling', 'wobbles', 'tilted', 'tilting', 'sagging', 'unstable', 'shaky'],
    ['sparking', 'sparks', 'spark', 'sparked', 'burning', 'smoke', 'smoking', 'smoldering', 'scorched', 'melted', 'melting', 'fire', 'flames'], ['breathing', 'breathe', 'breath', 'breathless', 'wheezing', 'wheezy', 'wheeze', 'winded']],
  conditions: ['when', 'whenever', 'after', 'during', 'while', 'at night', 'in the morning'],
  assent: {
    asks: ['agree', 'consent', 'accept', 'okay with', 'ok with', 'happy with', 'happy for'],
    words: ['fine', 'fine by me', "that's fine", 'thats fine', "it's fine", 'its fine', 'whatever', 'fine whatever', 'sure whatever', 'ok whatever',
      'okay whatever', 'if i must', 'if i have to', 'i suppose', 'i suppose so', 'i guess so', 'guess so', 'yeah whatever', 'alright then'],
    not: ["i'm fine", 'im fine', 'i am fine', "we're fine", 'fine thanks', 'fine thank you', 'not fine'],
  },
  chance: {
    asks: ['any chance', 'a chance', 'chance that', 'possibility', 'possible', 'could you be', 'might you be'],
    possible: ['could be', 'might be', 'may be', 'possibly', 'maybe', 'perhaps', "it's possible", 'its possible', 'it is possible', 'there is a chance',
      "there's a chance", 'theres a chance', 'a chance', 'been trying', 'we are trying', "we're trying", 'trying for a baby', 'trying to get pregnant', 'not impossible'],
  },
};
