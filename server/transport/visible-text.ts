import type { WireError } from './errors.ts';

// A message must show something: text made only of spaces, zero-width
// characters, direction controls or other format characters is empty to the
// person reading the transcript, so it is refused like an empty message.

// \p{Default_Ignorable_Code_Point} adds what renders as nothing without being a format character:
// the combining grapheme joiner U+034F, variation selectors (U+FE0F), U+17B4/U+17B5 and the Hangul fillers
const INVISIBLE = /^[\s\p{Cf}\p{Cc}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u115F\u1160\u3164\uFFA0\u2800]*$/u;

/** Whether `text` has at least one visible character. */
export function hasVisibleText(text: string): boolean {
  return !INVISIBLE.test(text);
}

/** The refusal of a message without visible characters. */
export const EMPTY_MESSAGE: WireError = { code: 'invalid_payload', message: 'Please type a message.' };
