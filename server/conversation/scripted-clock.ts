import type { CallEnv } from './actions.ts';

/**
 * A clock that moves only when told: one minute per user turn, and by the
 * backoff an action retry sleeps, so a scripted run gives the same trace
 * every time. Readings keep the offset of the start (`+02:00` stays
 * `+02:00`), because relative dates and `today()` resolve in it.
 */
export class ScriptedClock implements CallEnv {
  private ms: number;
  private readonly startMs: number;
  private readonly offsetMin: number;

  constructor(start: string) {
    const iso = start.includes('T') ? start : `${start}T00:00:00Z`;
    const m = /(Z|([+-])(\d{2}):?(\d{2}))$/.exec(iso);
    this.offsetMin = m && m[2] ? (m[2] === '-' ? -1 : 1) * (Number(m[3]) * 60 + Number(m[4])) : 0;
    this.ms = this.startMs = Date.parse(iso);
  }

  /** Moves to the next user turn, one minute later. */
  tick(): void {
    this.ms += 60_000;
  }

  /** The current reading, ISO 8601 in the start's offset. */
  now(): string {
    const local = new Date(this.ms + this.offsetMin * 60_000).toISOString().replace('.000Z', 'Z');
    if (this.offsetMin === 0) return local;
    const abs = Math.abs(this.offsetMin);
    const off = `${this.offsetMin < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
    return local.replace(/Z$/, off);
  }

  /** Waiting passes scripted time only. */
  async sleep(ms: number): Promise<void> {
    this.ms += ms;
  }

  /** Milliseconds since the start, for action durations. */
  clock(): number {
    return this.ms - this.startMs;
  }
}

