import type { BotMessage } from '../conversation/messages.ts';
import type { Session } from '../engine/session.ts';
import type { EngineEvent } from '../engine/types.ts';

/** One field of an expectation that did not hold. */
export interface Mismatch {
  field: string;
  expected: unknown;
  actual: unknown;
  why: string;
}

/** What a turn (or the end) produced, as expectations see it. */
export interface Observed {
  session: Session;
  messages: readonly BotMessage[];
  events: readonly EngineEvent[];
}

/** `/regex/flags` in a golden, or null for exact text. */
function asRegex(pattern: string): RegExp | null {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  if (!m) return null;
  try {
    return new RegExp(m[1]!, m[2]); // goldens are the author's own test files, not visitor input
  } catch {
    return null;
  }
}

/** Deep equality with JSON types kept apart (`2` is not `"2"`). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return sameValue(ka, kb) && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v);

/** Compares an answers subset: every expected key present with the same typed value. */
function answersMismatches(expected: Record<string, unknown>, s: Session, field: string): Mismatch[] {
  const out: Mismatch[] = [];
  for (const [key, want] of Object.entries(expected)) {
    const rec = s.answers.get(key);
    if (!rec) {
      out.push({ field: `${field}.${key}`, expected: want, actual: undefined, why: 'not answered' });
    } else if (!sameValue(rec.value, want)) {
      const why = typeName(rec.value) !== typeName(want) ? `different type (${typeName(want)} expected, ${typeName(rec.value)} committed)` : 'different value';
      out.push({ field: `${field}.${key}`, expected: want, actual: rec.value, why });
    }
  }
  return out;
}

/** The path as goldens name it: the followed (tentative or locked) path and whether it is locked. */
export function pathOf(s: Session): { active: string | null; locked: boolean } {
  return { active: s.path.tentative, locked: s.path.locked };
}

/** Checks a turn's `expect` block; unknown keys are reported, not ignored. */
export function checkTurn(expect: Record<string, unknown>, seen: Observed): Mismatch[] {
  const out: Mismatch[] = [];
  for (const [field, want] of Object.entries(expect)) {
    switch (field) {
      case 'node':
        if (seen.session.node !== want) out.push({ field, expected: want, actual: seen.session.node, why: 'the conversation is at another node' });
        break;
      case 'answers':
        out.push(...answersMismatches((want ?? {}) as Record<string, unknown>, seen.session, field));
        break;
      case 'path': {
        const actual = pathOf(seen.session);
        for (const [k, v] of Object.entries((want ?? {}) as Record<string, unknown>)) {
          if (!sameValue((actual as Record<string, unknown>)[k], v)) out.push({ field: `path.${k}`, expected: v, actual: (actual as Record<string, unknown>)[k], why: 'different path state' });
        }
        break;
      }
      case 'say': {
        const texts = seen.messages.map((m) => m.text);
        const wanted = Array.isArray(want) ? want : [want];
        for (const w of wanted) {
          const re = asRegex(String(w));
          const hit = texts.some((t) => (re ? re.test(t) : t === w));
          if (!hit) out.push({ field: 'say', expected: w, actual: texts, why: re ? 'no bot message of the turn matches' : 'no bot message of the turn is exactly this text' });
        }
        break;
      }
      case 'events': {
        const types = new Set(seen.events.map((e) => e.type));
        const missing = ((want ?? []) as string[]).filter((t) => !types.has(t as EngineEvent['type']));
        if (missing.length) out.push({ field: 'events', expected: want, actual: [...types].sort(), why: `missing ${missing.join(', ')}` });
        break;
      }
      case 'status':
        if (seen.session.status !== want) out.push({ field, expected: want, actual: seen.session.status, why: 'different status' });
        break;
      default:
        out.push({ field, expected: want, actual: undefined, why: `unknown expectation '${field}' (node, answers, path, say, events, status)` });
    }
  }
  return out;
}

/** Checks the golden's `end` block: status, answers subset, outcome. */
export function checkEnd(end: Record<string, unknown>, s: Session): Mismatch[] {
  const out: Mismatch[] = [];
  for (const [field, want] of Object.entries(end)) {
    if (field === 'status') {
      if (s.status !== want) out.push({ field: 'end.status', expected: want, actual: s.status, why: 'different final status' });
    } else if (field === 'outcome') {
      if ((s.outcome ?? null) !== want) out.push({ field: 'end.outcome', expected: want, actual: s.outcome ?? null, why: 'different outcome' });
    } else if (field === 'answers') {
      out.push(...answersMismatches((want ?? {}) as Record<string, unknown>, s, 'end.answers'));
    } else if (field === 'node') {
      if (s.node !== want) out.push({ field: 'end.node', expected: want, actual: s.node, why: 'ended at another node' });
    } else {
      out.push({ field: `end.${field}`, expected: want, actual: undefined, why: `unknown end check '${field}' (status, answers, outcome, node)` });
    }
  }
  return out;
}
