import type { Effect, Progress } from '../engine/types.ts';

/** What a person sees: one bot message (interfaces.md's `bot:message` without id and sequence). */
export interface BotMessage {
  text: string;
  nodeId: string | null;
  kind: 'question' | 'info' | 'invalid' | 'done' | 'handoff';
  quickReplies?: string[];
  multiple?: boolean;
  progress?: Progress;
}

/**
 * Turns a turn's effects into the messages a person sees. The engine's `say`
 * and `ask` become messages as they are; completion and escalation add a
 * closing line when the flow did not say anything itself.
 */
export function effectsToMessages(effects: readonly Effect[]): BotMessage[] {
  const out: BotMessage[] = [];
  for (const e of effects) {
    if (e.type === 'say') out.push({ text: e.text, nodeId: e.nodeId, kind: e.kind });
    else if (e.type === 'ask') {
      out.push({ text: e.text, nodeId: e.nodeId, kind: e.kind, progress: e.progress,
        ...(e.quickReplies ? { quickReplies: e.quickReplies } : {}), ...(e.multiple ? { multiple: true } : {}) });
    } else if (e.type === 'complete' && !out.some((m) => m.kind === 'done' || m.kind === 'handoff')) {
      if (e.status === 'completed') out.push({ text: "Thank you — that's everything we need.", nodeId: null, kind: 'done' });
      else if (e.status === 'escalated' || e.status === 'error') out.push({ text: "I'll pass this to a member of our team, who will follow up with you.", nodeId: null, kind: 'handoff' });
      else if (e.status === 'abandoned') out.push({ text: 'This conversation has been closed.', nodeId: null, kind: 'done' });
    } else if (e.type === 'wait_for_operator') {
      out.push({ text: 'One moment — a member of our team needs to review this before we continue.', nodeId: e.nodeId, kind: 'info' });
    }
  }
  return out;
}
