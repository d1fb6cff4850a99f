/**
 * DIAGNOSTIC for bench:server `--replay-turns` (never the reported figures'
 * default): the server child imports this before it starts, and from then on
 * a visitor's text turn that an earlier visitor already took — same node,
 * same number of answers, same text — is answered with that earlier turn's
 * settled result (its session, bot messages and events) instead of running
 * the extractor and the engine again. Everything else of the turn runs as
 * usual: the socket, the rate limits, the lock, the load, the store's commit,
 * the broadcast, the metrics. The bench's visitors all play the same script,
 * so every turn but the first at each step is replayed: the run measures
 * what the rest of the server costs, as if extraction and the engine were
 * free.
 *
 * It wraps the conversation service's (private) `run`, the one place a turn
 * calls the turn runner, so it only stands for the measurement: the
 * sessions it stores are other visitors' and mean nothing.
 */
import { ConversationService } from '../../server/conversation/service.ts';

type Run = (flow: unknown, session: { node: string | null; answers: { size: number } }, input: { kind: string; text?: string }, tenant: string) => Promise<unknown>;

const service = ConversationService.prototype as unknown as { run: Run };
const realRun = service.run;
if (typeof realRun !== 'function') throw new Error('replay-turns: ConversationService has no run() to wrap any more; update bench/server/replay-turns.ts');
const settled = new Map<string, unknown>();
export const replayCounts = { replayed: 0, ran: 0 };

service.run = function (this: unknown, flow, session, input, tenant) {
  if (input.kind !== 'text') return realRun.call(this, flow, session, input, tenant);
  const key = `${session.node}\0${session.answers.size}\0${input.text}`;
  const earlier = settled.get(key);
  if (earlier) {
    replayCounts.replayed++;
    return Promise.resolve(earlier);
  }
  replayCounts.ran++;
  return realRun.call(this, flow, session, input, tenant).then((r) => {
    settled.set(key, r);
    return r;
  });
};
