import type { Effect, Progress } from '../engine/types.ts';
import type { Messages } from '../flow/messages/catalogue.ts';
import { EN } from '../language/en/messages.ts';

/** What a person sees: one bot message (interfaces.md's `bot:message` without id and sequence). */
export interface BotMessage {
  text: string;
  nodeId: string | null;
  kind: 'question' | 'info' | 'invalid' | 'done' | 'handoff';
  /** `alert`: safety advice a client shows as an alert (the protocol's `MessageTone`). */
  tone?: 'alert';
  quickReplies?: string[];
  multiple?: boolean;
  progress?: Progress;
}

/**
 * Turns a turn's effects into the messages a person sees. The engine's `say`
 * and `ask` become messages as they are; completion and escalation add a
 * closing line when the flow did not say anything itself.
 */
export function effectsToMessages(effects: readonly Effect[], m: Messages = EN): BotMessage[] {
  const out: BotMessage[] = [];
  for (const e of effects) {
    if (e.type === 'say') out.push({ text: e.text, nodeId: e.nodeId, kind: e.kind, ...(e.tone ? { tone: e.tone } : {}) });
    else if (e.type === 'ask') {
      out.push({ text: e.text, nodeId: e.nodeId, kind: e.kind, progress: e.progress,
        ...(e.quickReplies ? { quickReplies: e.quickReplies } : {}), ...(e.multiple ? { multiple: true } : {}) });
    } else if (e.type === 'complete' && !out.some((m) => m.kind === 'done' || m.kind === 'handoff')) {
      if (e.status === 'completed') out.push({ text: m.closing_completed, nodeId: null, kind: 'done' });
      else if (e.status === 'escalated' || e.status === 'error') out.push({ text: m.closing_handoff, nodeId: null, kind: 'handoff' });
      else if (e.status === 'abandoned') out.push({ text: m.closing_abandoned, nodeId: null, kind: 'done' });
    } else if (e.type === 'wait_for_operator') {
      out.push({ text: m.closing_waiting, nodeId: e.nodeId, kind: 'info' });
    }
  }
  return out;
}
