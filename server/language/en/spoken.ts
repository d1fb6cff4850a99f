import type { SpokenWords } from '../spoken-words.ts';

/** English spelled addresses and numbers (server/extract/parse/spelled.ts). */
export const EN_SPOKEN: SpokenWords = {
  at: ['at'],
  dot: ['dot'],
  digits: { zero: '0', oh: '0', o: '0', nought: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9' },
  repeat: { double: 2, triple: 3 },
  insteadOfEmail: [
    'call me', 'call instead', 'just call', 'please call', 'give me a call', 'ring me', 'rather you called', 'rather you call',
    'rather a call', 'rather a phone call', 'prefer a call', 'prefer a phone call', 'prefer calls', 'prefer phone', 'by phone',
    'phone is better', 'phone only', 'phone instead', 'no email', "don't have email", "don't have an email", 'dont have email',
    "don't use email", 'no e-mail', 'call is better', 'a call is fine', 'phone call is fine', 'text me',
  ],
  insteadOfPhone: [
    'email is fine', 'email instead', 'email only', 'just email', 'by email', 'rather email', 'prefer email', 'email me',
    'email is better', 'no phone', 'no phone number', "don't have a phone", 'dont have a phone', "rather not be called",
    "don't call", 'dont call', 'no calls', 'e-mail is fine', 'mail is fine', 'via email',
  ],
};
