// Every string the widget itself shows (the flow's questions come from the
// server), in English; the other languages are in translations.ts and follow
// the session's locale. `Questline.init({ texts: { … } })` replaces any of
// them whatever the language. `{answered}`, `{total}`, `{n}` and `{reason}`
// are filled in. Texts are always set as text.

export interface Texts {
  title: string;
  launcher: string;
  placeholder: string;
  log: string;
  typing: string;
  notStarted: string;
  back: string;
  backHint: string;
  restart: string;
  restartHint: string;
  close: string;
  send: string;
  inputLabel: string;
  endedPlaceholder: string;
  progressLabel: string;
  progress: string;
  progressDone: string;
  suggestions: string;
  suggestionsMultiple: string;
  sendChoices: string;
  sendChoicesCount: string;
  confirmRestart: string;
  confirmYes: string;
  confirmNo: string;
  newConversation: string;
  completedTitle: string;
  completedText: string;
  escalatedTitle: string;
  escalatedText: string;
  waitingTitle: string;
  waitingText: string;
  abandonedTitle: string;
  abandonedText: string;
  /** A conversation that went idle and can be picked up again by writing (the tenant's `resume_s`). */
  pausedTitle: string;
  pausedText: string;
  errorTitle: string;
  errorText: string;
  connecting: string;
  reconnecting: string;
  offline: string;
  unavailable: string;
  notConnected: string;
  noAnswer: string;
  sessionEnded: string;
  sessionFull: string;
  notSent: string;
  you: string;
  assistant: string;
  teamMember: string;
  newMessage: string;
  /** The label above safety advice (a bot line with `tone: 'alert'`), beside its warning icon. */
  alert: string;
}

export const DEFAULT_TEXTS: Texts = {
  title: 'Chat with us',
  launcher: 'Open chat',
  placeholder: 'Type your answer…',
  log: 'Conversation',
  typing: 'The assistant is typing…',
  notStarted: 'Not started',
  back: 'Back',
  backHint: 'Undo your last answer',
  restart: 'Restart',
  restartHint: 'Start over',
  close: 'Close chat',
  send: 'Send',
  inputLabel: 'Your answer',
  endedPlaceholder: 'This conversation has ended.',
  progressLabel: 'Questions answered',
  progress: '{answered} of {total} answered',
  progressDone: 'All questions answered',
  suggestions: 'Suggested answers',
  suggestionsMultiple: 'Suggested answers (pick any, then Send)',
  sendChoices: 'Send',
  sendChoicesCount: 'Send ({n})',
  confirmRestart: 'Start over? Your answers so far will be cleared.',
  confirmYes: 'Start over',
  confirmNo: 'Keep going',
  newConversation: 'Start a new conversation',
  completedTitle: 'All done — thank you!',
  completedText: 'Your answers have been sent.',
  escalatedTitle: 'A person from our team will take it from here.',
  escalatedText: 'You can keep writing here; they will see it.',
  waitingTitle: 'A team member is checking your answers.',
  waitingText: 'The conversation carries on once they have.',
  abandonedTitle: 'This conversation was closed.',
  pausedTitle: 'This conversation is paused.',
  pausedText: 'Write to pick up where you left off.',
  abandonedText: '',
  errorTitle: 'Something went wrong on our side.',
  errorText: 'Please start a new conversation.',
  connecting: 'Connecting…',
  reconnecting: 'Connection lost — reconnecting…',
  offline: 'You are offline. Your messages will be sent when you are back online.',
  unavailable: 'The chat is unavailable right now.',
  notConnected: 'Not connected yet — try again in a moment.',
  noAnswer: 'The server did not answer; try again.',
  sessionEnded: 'This conversation has ended — thank you! Press Restart to begin a new one.',
  sessionFull: 'This conversation is too long to continue here — thank you! Press Restart to begin a new one.',
  notSent: 'Not sent: {reason}',
  you: 'You',
  assistant: 'Assistant',
  teamMember: 'Team member',
  newMessage: 'new message',
  alert: 'Urgent — please read',
};

/** The page's own strings from `texts` (known keys with string values only). */
export function customTexts(custom: unknown): Partial<Texts> {
  const out: Partial<Texts> = {};
  if (custom && typeof custom === 'object') {
    for (const key of Object.keys(DEFAULT_TEXTS) as Array<keyof Texts>) {
      const v = (custom as Record<string, unknown>)[key];
      if (typeof v === 'string') out[key] = v;
    }
  }
  return out;
}

/** Fills `{name}` placeholders. */
export const fill = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
