import type { AnswerSpec } from '../flow/answer-types.ts';

// What a question's answer must be even where the flow does not say it: a date of birth is in the past. A flow
// that asks "What is the patient's date of birth?" without `past: true` would otherwise commit "12/25/2026".

/** Keys naming a birth date: `dob`, `date_of_birth`, `birth_date`, `birthday`, `patient_dob`, `geburtsdatum`. */
const BIRTH_KEY = /(?:^|[_.-])(?:dob|date_?of_?birth|birth_?date|birthday|born|geburtsdatum|geburtstag)(?:[_.-]|$)/i;
/** Prompts asking for one, in the languages with a pack. */
const BIRTH_PROMPT = /\b(?:date of birth|birth ?date|birthday|born|geburtsdatum|geburtstag|geboren|date de naissance|fecha de nacimiento)\b/i;

/**
 * The answer spec as the extractors read it: a date of birth (by key or prompt) is `birth: true` unless the flow
 * says `birth`, and `past: true` unless the flow says `past` or `future`.
 */
export function impliedAnswer(answer: AnswerSpec, key: string, prompt: string | undefined): AnswerSpec {
  if (answer.type !== 'date' || (answer.birth !== undefined && (answer.past !== undefined || answer.future !== undefined))) return answer;
  if (!(BIRTH_KEY.test(key) || (prompt !== undefined && BIRTH_PROMPT.test(prompt)))) return answer;
  return { ...answer, ...(answer.birth === undefined ? { birth: true } : {}), ...(answer.past === undefined && answer.future === undefined ? { past: true } : {}) };
}
