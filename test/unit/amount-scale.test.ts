import { describe, expect, it } from 'vitest';
import type { AnswerSpec } from '../../server/flow/answer-types.ts';
import { parseAnswer, type ParseContext } from '../../server/extract/parse/index.ts';
import { questionScale, scaleAmount } from '../../server/extract/parse/amount-scale.ts';

const ctx: ParseContext = { now: '2026-01-15T10:00:00Z', defaultCountry: 'US' };
const usd: AnswerSpec = { type: 'integer', min: 0, unit: 'USD', currency: 'USD' };
const PROMPT = 'What budget do you have in mind, in US dollars? A ballpark is fine: packages start at about $12,000.';

function scaled(spec: AnswerSpec, prompt: string | undefined, text: string) {
  return scaleAmount(spec, prompt, parseAnswer(spec, text, ctx), () => parseAnswer({ ...spec, min: undefined, max: undefined } as AnswerSpec, text, ctx));
}

describe('a bare amount against the question\'s own scale', () => {
  it('reads the scale from the prompt\'s figures and the min, not the key', () => {
    expect(questionScale(usd as Extract<AnswerSpec, { type: 'integer' }>, PROMPT)).toBe(12000);
    expect(questionScale(usd as Extract<AnswerSpec, { type: 'integer' }>, 'Welches Budget? Pakete ab etwa 12.000 $.')).toBe(12000);
    expect(questionScale({ type: 'integer', min: 5000 }, 'Your budget?')).toBe(5000);
    expect(questionScale(usd as Extract<AnswerSpec, { type: 'integer' }>, 'What is your budget?')).toBeNull();
  });

  it('checks a bare figure far below the scale in thousands, one below it as typed', () => {
    expect(scaled(usd, PROMPT, '50')).toMatchObject({ ok: true, value: 50000, check: true });
    expect(scaled(usd, PROMPT, 'ok say 30')).toMatchObject({ ok: true, value: 30000, check: true });
    expect(scaled(usd, PROMPT, '500')).toMatchObject({ ok: true, value: 500, check: true });
    // a "50" refused by the question's min is still read in thousands
    expect(scaled({ type: 'integer', min: 5000, currency: 'USD' }, 'Your budget in dollars?', '50')).toMatchObject({ ok: true, value: 50000, check: true });
  });

  it('leaves a figure with its multiplier, a plausible one and a question without figures alone', () => {
    expect(scaled(usd, PROMPT, '50k')).toBeNull();
    expect(scaled(usd, PROMPT, '12000')).toBeNull();
    expect(scaled(usd, PROMPT, '$20,000')).toBeNull();
    expect(scaled(usd, PROMPT, '$100')).toBeNull();
    expect(scaled(usd, 'What is your budget?', '50')).toBeNull();
    expect(scaled({ type: 'integer', min: 0 }, PROMPT, '50')).toBeNull();
  });
});
