import type { Effect, Input } from '../engine/types.ts';

/** A registered action handler: async, may fail by throwing; gets an abort signal for its timeout. */
export type ActionHandler = (input: Record<string, unknown>, ctx: { signal: AbortSignal; attempt: number }) => Promise<Record<string, unknown>>;

/** Handlers by the `call` name flows use. */
export type ActionRegistry = Readonly<Record<string, ActionHandler>>;

/** What the runner needs from the outside world to carry out a call: time and waiting. */
export interface CallEnv {
  now(): string;
  sleep(ms: number): Promise<void>;
  /** Monotonic milliseconds, for durations. */
  clock(): number;
}

/** The real clock and timers. */
export const systemCallEnv: CallEnv = {
  now: () => new Date().toISOString(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  clock: () => performance.now(),
};

/**
 * Carries out a `call` effect: runs the handler with a timeout, retries with
 * exponential backoff, and returns the action result as the engine's next input.
 */
export async function runCall(effect: Extract<Effect, { type: 'call' }>, registry: ActionRegistry, env: CallEnv = systemCallEnv): Promise<Input> {
  const handler = Object.hasOwn(registry, effect.name) ? registry[effect.name] : undefined;
  const started = env.clock();
  const done = (r: { ok: true; output: Record<string, unknown> } | { ok: false; error: string }): Input =>
    ({ kind: 'action_result', callId: effect.callId, ...r, durationMs: Math.round(env.clock() - started), now: env.now() });
  if (!handler) return done({ ok: false, error: `no handler registered for '${effect.name}'` });
  let error = 'failed';
  for (let attempt = 0; attempt <= effect.retry.max; attempt++) {
    if (attempt > 0) await env.sleep(effect.retry.backoffMs * 2 ** (attempt - 1));
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const output = await Promise.race([
        handler(effect.input, { signal: controller.signal, attempt }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            // settle the race first: a handler that resolves on abort must not win it
            reject(new Error(`timed out after ${effect.timeoutMs} ms`));
            controller.abort();
          }, effect.timeoutMs);
        }),
      ]);
      if (output === null || typeof output !== 'object' || Array.isArray(output)) throw new Error('handler returned no object');
      return done({ ok: true, output });
    } catch (err) {
      error = (err as Error).message || String(err);
    } finally {
      clearTimeout(timer);
    }
  }
  return done({ ok: false, error: effect.retry.max > 0 ? `${error} (after ${effect.retry.max + 1} attempts)` : error });
}
