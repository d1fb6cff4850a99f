import { emit, type Draft } from './draft.ts';
import { flowIndex } from './flow-index.ts';
import { finish, progressOf } from './traverse.ts';

// Cancel asks first (flow-ir.md `commands`): "stop" typed by mistake, or in
// a moment of doubt, must not throw away a half-done intake.


const normal = (text: string) => text.trim().toLowerCase().replace(/[.!?]+$/, '').replace(/\s+/g, ' ');

/**
 * The cancel command: the first time it asks for confirmation and keeps the
 * session where it is; when the session is already asking, it abandons.
 */
export function cancelCommand(d: Draft): void {
  if (d.s.confirming === 'cancel') {
    d.s.confirming = undefined;
    finish(d, 'abandoned', 'abandoned', { reason: 'user cancelled' });
    d.effects.unshift({ type: 'say', nodeId: d.s.node ?? d.flow.entry, kind: 'done', text: d.flow.messages.cancel_done });
    return;
  }
  d.s.confirming = 'cancel';
  emit(d, 'command', { command: 'cancel', confirm: 'asked' });
  d.effects.push({ type: 'ask', nodeId: d.s.node ?? d.flow.entry, text: d.flow.source.commands?.cancel_confirm ?? d.flow.messages.cancel_confirm,
    kind: 'question', quickReplies: [d.flow.messages.cancel_yes_chip, d.flow.messages.cancel_no_chip], progress: progressOf(d, d.s.node) });
}

/**
 * A message while cancel waits for a yes: a yes (or a cancel word) abandons;
 * anything else carries on, asking again where the visitor was. Returns true
 * when it dealt with the message.
 */
export function confirmingReply(d: Draft, text: string, reask: (d: Draft) => void): boolean {
  const said = normal(text);
  // the catalogue's yes words, unless the flow lists its own (`commands.cancel_yes`); a cancel word confirms too
  const yes = (d.flow.source.commands?.cancel_yes ?? d.flow.messages.cancel_yes).map(normal);
  if (yes.includes(said) || flowIndex(d.flow).commands.get(said) === 'cancel') {
    cancelCommand(d);
    return true;
  }
  d.s.confirming = undefined;
  emit(d, 'command', { command: 'cancel', confirm: 'declined' });
  reask(d);
  return true;
}
