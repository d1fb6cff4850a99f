import type { LocalConversation, Reply } from '../conversation/local-conversation.ts';
import type { GoldenTurn } from './script.ts';

/** What a turn shows in reports: the visitor's text, or the operator's move. */
export function turnText(t: GoldenTurn): string {
  if (t.user !== undefined) return t.user;
  const o = t.operator!;
  return o.decision ? `[operator ${o.decision}]` : `[operator hands back at ${o.hand_back}]`;
}

/** Plays one scripted turn: the visitor's message, an operator's decision, or a hand-back to the bot. */
export async function playTurn(conv: LocalConversation, t: GoldenTurn, now: string): Promise<Reply> {
  if (t.user !== undefined) return conv.send(t.user, now);
  const o = t.operator!;
  if (o.decision) return conv.operator(o.decision, o.answers);
  return conv.handBack(o.hand_back!, o.answers);
}
