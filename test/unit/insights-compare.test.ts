import { describe, expect, it } from 'vitest';
import { compareRates } from '../../client/admin/insights-compare.ts';

describe('comparing two revisions\' completion rates', () => {
  it('says how sure a difference is (two-proportion z-test)', () => {
    // 50/100 against 65/100: z ≈ 2.15, two-sided p ≈ 0.032
    const c = compareRates({ completed: 50, sessions: 100 }, { completed: 65, sessions: 100 });
    expect(c.difference).toBeCloseTo(0.15, 10);
    expect(c.sure).toBeGreaterThan(0.965);
    expect(c.sure).toBeLessThan(0.97);
    expect(c.words).toBe('The second revision completes more often (15 points); 97% sure this is not chance.');
  });

  it('calls a small difference chance, and too few sessions too few', () => {
    const c = compareRates({ completed: 50, sessions: 100 }, { completed: 53, sessions: 100 });
    expect(c.sure).toBeLessThan(0.5);
    expect(c.words).toMatch(/could well be chance/);
    expect(compareRates({ completed: 1, sessions: 3 }, { completed: 9, sessions: 10 })).toMatchObject({ sure: null, words: 'Too few sessions to tell whether the revisions differ.' });
  });
});
