import { z } from 'zod';

// The keys of the built-in message catalogue (see catalogue.ts); `{name}` marks a placeholder.

const words = () => z.array(z.string().min(1));

/**
 * Every built-in text; a flow or tenant may change any of them per locale.
 * Built by each call, not when the module loads (`import('questline')` builds
 * no schema): flow/messages/catalogue.ts builds it once, on first use.
 */
export const MessagesShape = () => z.object({
  ended_completed: z.string(), ended_escalated: z.string(), ended_other: z.string(),
  waiting: z.string(), required: z.string(), not_understood: z.string(), not_caught: z.string(),
  more: z.string(), more_including: z.string(), also_about: z.string(), list_and: z.string(),
  handoff: z.string(), handoff_offline: z.string().describe('the escalation line when nobody from the team is online; {when} is the tenant\'s reply_time or handover_when'), nothing_to_go_back: z.string(), idle_closed: z.string(), hand_back: z.string(),
  idle_paused: z.string().describe('the idle line when the tenant lets a visitor come back to the conversation (settings.resume_s)'),
  welcome_back: z.string().describe('said to a visitor who comes back to a conversation that went idle, before the question again'),
  conversion: z.string(), conversion_about: z.string(),
  reask_number: z.string(), reask_integer: z.string(), range_between: z.string(), range_min: z.string(), range_max: z.string(), unit: z.string(),
  reask_choose_one: z.string(), reask_choose_from: z.string(), reask_boolean: z.string(), reask_email: z.string(), reask_phone: z.string(),
  reask_url: z.string(), reask_date: z.string(), reask_text_between: z.string(), reask_text_min: z.string(), reask_text_max: z.string(),
  reask_text: z.string(), reask_pattern: z.string(), reask_rule: z.string(),
  constraint_one_of: z.string(), constraint_group_and: z.string(), constraint_group_or: z.string(), constraint_expr: z.string(),
  cancel_confirm: z.string(), cancel_done: z.string(), cancel_yes_chip: z.string(), cancel_no_chip: z.string(), cancel_yes: words(),
  path_prompt: z.string(),
  review_prompt: z.string(), review_confirm: z.string(), review_confirm_chip: z.string(), review_change_chip: z.string(),
  review_change_one: z.string(), review_which: z.string(), review_first_one: z.string(),
  review_yes: z.string().describe('regular expression alternatives: a reply starting with one confirms'),
  review_change: z.string().describe('regular expression alternatives: a reply with one asks to change something'),
  skipped: z.string(), yes: z.string(), no: z.string(), months: z.array(z.string()).length(12), date: z.string(),
  closing_completed: z.string(), closing_handoff: z.string(), closing_abandoned: z.string(), closing_waiting: z.string(),
  language_changed: z.string(),
  stuck_offer: z.string(), stuck_skip: z.string(),
  corrected: z.string().describe('said when a reply corrects the answer given the turn before; {label} is the question, {value} the new value in words'),
  pause: z.string().describe('said when the visitor asks for a moment before answering ("hold on", "one sec", "Moment bitte"); the question is asked again, no miss'),
  corrected_private: z.string().describe('said instead of `corrected` when the corrected answer is personal data (`pii`): the value is not repeated in the chat; {label} is the question'),
  reopen: z.string().describe('said before an earlier question is asked again because a reply went back to it without a value the bot could read ("wrong number, it ends 0134")'),
  derive_mismatch: z.string().describe('said before a question is asked again because an answer given disagrees with the one derived from it (an age and a date of birth); {label} and {from} are the two questions\' labels, {derived} the derived value, {given} the one given, {value} the answer it is derived from in words'),
  noted: z.string().describe('said before the current question is asked again when the reply answered another question instead ("$30,000" at the area question); {label} is that question, {value} the answer in words'),
  check_value: z.string().describe('the one short question before committing a value read from a reply with words the rules could not account for; {value} is the value in words'),
  check_again: z.string().describe('the check asked once more when the reply answered something else (kept for the next question); {value} is the value in words'),
  carried: z.string().describe('said when a reply to a yes/no question also answered the question after it ("yep, Aetna"); {label} is that question, {value} the answer in words'),
  opening_quote: z.string().describe('put before a check of a value read from the visitor\'s first words, held from the start of the conversation ("You wrote: “…”. Just to check: 6 days?"); {text} is those words'),
  opening_check: z.string().describe('asked at a description question (free text) instead of its prompt when the message that chose this branch already described the matter; {text} is that message, {label} the question (lower-cased mid-sentence unless the language capitalises nouns)'),
  contact_ask: z.string(), contact_skip_chip: z.string(), contact_noted: z.string(), contact_skipped: z.string(),
  handover_online: z.string(), handover_offline: z.string(), handover_when: z.string(), handover_noted: z.string(),
  handover_by_email: z.string(), handover_by_phone: z.string(), handover_by_chat: z.string(),
  handover_closed: z.string().describe('said when an operator closes a conversation (an escalated one, or one they took over)'),
  commands_back: words(), commands_restart: words(), commands_human: words(), commands_cancel: words(), commands_skip: words(),
  language_names: words().describe('what a visitor types to switch to this language ("deutsch", "auf deutsch")'),
}).strict();
/** A locale's complete catalogue. */
export type Messages = z.infer<ReturnType<typeof MessagesShape>>;

