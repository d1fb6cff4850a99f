import { describe, expect, it } from 'vitest';
import type { ExtractionRequest, OpenQuestion, PathChoice } from '../../server/extract/extractor.ts';
import { OfflineExtractor } from '../../server/extract/offline/index.ts';
import type { AnswerSpec } from '../../server/flow/answer-types.ts';

const extractor = new OfflineExtractor();

const q = (key: string, answer: AnswerSpec = { type: 'text' }, extra: Partial<OpenQuestion> = {}): OpenQuestion => ({
  nodeId: `q.${key}`, key, answer, required: true, ...extra,
});

const name = q('name');
const email = q('email', { type: 'email' });
const phone = q('phone', { type: 'phone' });
const website = q('website', { type: 'url' });
const budget = q('budget', { type: 'number', min: 50, max: 20000 }, { label: 'Budget' });
const facility = q('facility', {
  type: 'enum',
  options: [{ value: 'bb', label: 'Basketball court' }, { value: 'tennis', label: 'Tennis court' }, { value: 'gym', label: 'Gym' }],
});
const paths: PathChoice[] = [
  { name: 'buy_led', label: 'Buy LED lighting', examples: ['buy', 'quote', 'lights for a court'] },
  { name: 'support', label: 'Support', examples: ['broken', 'warranty'] },
];

function request(text: string, current: OpenQuestion | null, open: OpenQuestion[] = [], more: Partial<ExtractionRequest> = {}): ExtractionRequest {
  return { text, current, open, paths: [], now: '2026-01-15T10:00:00Z', defaultCountry: 'US', ...more };
}

const run = (text: string, current: OpenQuestion | null, open: OpenQuestion[] = [], more: Partial<ExtractionRequest> = {}) =>
  extractor.extract(request(text, current, open, more));

describe('OfflineExtractor — the current question', () => {
  it('is named "rules" and signs its proposals', () => {
    expect(extractor.name).toBe('rules');
    expect(run('hi', name).extractor).toBe('rules');
  });

  it('proposes an exact answer with confidence 1', () => {
    expect(run('$5,000', budget).updates).toEqual([{ key: 'budget', value: 5000, confidence: 1, evidence: '$5,000' }]);
  });

  it('proposes an answer found inside a sentence with lower confidence', () => {
    const [u] = run('we can spend about 5k on this', budget).updates;
    expect(u).toMatchObject({ key: 'budget', value: 5000, evidence: '5k' });
    expect(u!.confidence).toBeLessThan(1);
    expect(u!.confidence).toBeGreaterThanOrEqual(0.7);
  });

  it('reports the reason as a problem when the message does not answer it', () => {
    const p = run('30', budget);
    expect(p.updates).toEqual([]);
    expect(p.problem).toEqual({ key: 'budget', reason: 'Please give a number between 50 and 20000.' });
  });

  it('takes the whole trimmed message for a text question', () => {
    expect(run('  The LEDs flicker when it rains.  ', q('issue')).updates).toEqual([
      { key: 'issue', value: 'The LEDs flicker when it rains.', confidence: 1, evidence: 'The LEDs flicker when it rains.' },
    ]);
  });
});

describe('OfflineExtractor — skipping', () => {
  for (const text of ['skip', 'Pass.', "I don't know", 'honestly no idea, sorry', "I'd rather not say", 'prefer not to say', 'my budget? no idea']) {
    it(`marks the current key unknown for "${text}"`, () => {
      const p = run(text, budget);
      expect(p.unknown).toEqual(['budget']);
      expect(p.updates).toEqual([]);
      expect(p.problem).toBeUndefined();
    });
  }

  it('does not skip when the words are part of a real answer', () => {
    expect(run("I don't know why it broke, it just went dark", q('issue')).updates[0]?.value).toBe("I don't know why it broke, it just went dark");
    expect(run('the ball should pass over the net', q('issue')).unknown).toEqual([]);
    expect(run("I don't know, maybe 500", budget).updates[0]).toMatchObject({ key: 'budget', value: 500 });
  });

  it('takes an option literally called "Not sure" as the answer, not a skip', () => {
    const sure = q('sure', { type: 'enum', options: ['Yes', 'No', 'Not sure'] });
    expect(run('not sure', sure)).toMatchObject({ updates: [{ key: 'sure', value: 'Not sure', confidence: 1 }], unknown: [] });
  });

  it('skips a yes/no question on "no idea" rather than reading "no"', () => {
    expect(run('no idea', q('has_permit', { type: 'boolean' })).unknown).toEqual(['has_permit']);
    expect(run('no idea', q('permit', { type: 'enum', options: ['yes', 'no'] })).unknown).toEqual(['permit']);
  });

  it('keeps a typed answer given beside a skip phrase', () => {
    expect(run('no idea, ann@example.com', email)).toMatchObject({ updates: [{ key: 'email', value: 'ann@example.com' }], unknown: [] });
  });
});

describe('OfflineExtractor — asking for a person', () => {
  for (const text of ['Can I talk to a human?', 'I want a real person', 'agent please']) {
    it(`escalates on "${text}"`, () => {
      const p = run(text, q('issue'));
      expect(p.escalate).toEqual({ reason: 'user asked for a person' });
      expect(p.updates).toEqual([]);
      expect(p.problem).toBeUndefined();
    });
  }

  it('does not escalate on answers that merely mention agents', () => {
    expect(run("I'm a sales agent for a gym chain", q('role')).escalate).toBeUndefined();
  });
});

describe('OfflineExtractor — several answers in one message', () => {
  it('answers the name and the open email question from "I\'m Ann, ann@example.com"', () => {
    const p = run("I'm Ann, ann@example.com", name, [email, phone]);
    expect(p.updates).toEqual([
      { key: 'name', value: 'Ann', confidence: expect.any(Number), evidence: "I'm Ann" },
      { key: 'email', value: 'ann@example.com', confidence: expect.any(Number), evidence: 'ann@example.com' },
    ]);
  });

  it('fills an open name question from "my name is …" while another question is current', () => {
    const p = run('5k. my name is ann lee, call 415-555-0123', budget, [name, phone]);
    expect(p.updates.map((u) => [u.key, u.value])).toEqual([['budget', 5000], ['name', 'ann lee'], ['phone', '+14155550123']]);
  });

  it('takes only the first word for a first-name question', () => {
    expect(run('This is Ann Lee from Brightfield', budget, [q('first_name')]).updates).toContainEqual(
      expect.objectContaining({ key: 'first_name', value: 'Ann' }),
    );
  });

  it('does not read "I\'m looking for…" as a name', () => {
    expect(run("I'm looking for new lights", budget, [name]).updates).toEqual([]);
  });

  it('proposes a phone and a website for other open questions', () => {
    const p = run('reach us on (415) 555-0123 or see www.brightfield.com', q('issue'), [phone, website]);
    expect(p.updates.slice(1).map((u) => [u.key, u.value])).toEqual([['phone', '+14155550123'], ['website', 'https://www.brightfield.com']]);
  });

  it('proposes an enum option named by a distinctive label', () => {
    const p = run('around 8k for the tennis court', budget, [facility]);
    expect(p.updates).toContainEqual(expect.objectContaining({ key: 'facility', value: 'tennis' }));
  });

  it('ignores enum phrases shorter than four characters for questions not asked', () => {
    expect(run('5k for a gym', budget, [facility]).updates.map((u) => u.key)).toEqual(['budget']);
  });

  it('ignores an enum phrase that belongs to two open questions', () => {
    const indoor = q('venue', { type: 'enum', options: [{ value: 'court', label: 'Tennis court' }, 'hall'] });
    expect(run('5k for the tennis court', budget, [facility, indoor]).updates.map((u) => u.key)).toEqual(['budget']);
  });

  it("does not count a phrase inside the current question's longer option", () => {
    const current = q('surface', { type: 'enum', options: [{ value: 'hard', label: 'Tennis court hard surface' }, 'grass'] });
    const p = run('tennis court hard surface', current, [facility]);
    expect(p.updates.map((u) => [u.key, u.value])).toEqual([['surface', 'hard']]);
  });

  it('never guesses a number or free text for a question that was not asked', () => {
    expect(run('the lights flicker, budget 5000', q('issue'), [budget, q('notes')]).updates.map((u) => u.key)).toEqual(['issue']);
  });

  it('leaves an address to the current question when both ask for one', () => {
    const p = run('ann@example.com', email, [q('billing_email', { type: 'email' })]);
    expect(p.updates.map((u) => u.key)).toEqual(['email']);
  });

  it('proposes nothing when two open questions could take the same address', () => {
    const p = run('5k, ann@example.com', budget, [email, q('billing_email', { type: 'email' })]);
    expect(p.updates.map((u) => u.key)).toEqual(['budget']);
  });

  it('never proposes two values for one key', () => {
    const p = run("I'm Ann, ann@example.com", name, [name, email]);
    const keys = p.updates.map((u) => u.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('still reads other questions when the current one fails or is skipped', () => {
    expect(run('no idea, but ann@example.com', budget, [email])).toMatchObject({
      unknown: ['budget'], updates: [{ key: 'email', value: 'ann@example.com' }],
    });
  });

  it('answers open questions when no question is current', () => {
    expect(run('ann@example.com', null, [email]).updates).toEqual([
      { key: 'email', value: 'ann@example.com', confidence: expect.any(Number), evidence: 'ann@example.com' },
    ]);
  });
});

describe('OfflineExtractor — path votes', () => {
  it('votes for the path whose example matches longest', () => {
    const p = run('I need lights for a court, not broken ones', null, [], { paths });
    expect(p.pathVote?.path).toBe('buy_led');
  });

  it('votes from the label too, as a clear vote (two clear votes lock at lock_threshold 2)', () => {
    const vote = run('support', null, [], { paths }).pathVote;
    expect(vote).toEqual({ path: 'support', confidence: 1 });
  });

  it('a phrase as written is a clear vote, an example\'s words in another order a weaker one', () => {
    expect(run('we want lights for a court at school', null, [], { paths }).pathVote).toEqual({ path: 'buy_led', confidence: 1 });
    expect(run('we want to buy something', null, [], { paths }).pathVote).toEqual({ path: 'buy_led', confidence: 1 });
    expect(run('our court needs lights', null, [], { paths }).pathVote).toEqual({ path: 'buy_led', confidence: 0.6 });
  });

  it('does not vote when two paths tie or nothing matches', () => {
    const tie: PathChoice[] = [{ name: 'a', examples: ['lamp'] }, { name: 'b', examples: ['bulb'] }];
    expect(run('a lamp or a bulb', null, [], { paths: tie }).pathVote).toBeUndefined();
    expect(run('hello there', null, [], { paths }).pathVote).toBeUndefined();
  });

  it('matches examples on word boundaries only', () => {
    expect(run('a buyer asked me', null, [], { paths }).pathVote).toBeUndefined();
  });
});

describe('OfflineExtractor — determinism and hostile text', () => {
  it('gives deep-equal proposals for the same request', () => {
    const req = request("I'm Ann, 5k, ann@example.com, tennis court, quote please", budget, [name, email, facility], { paths });
    const a = extractor.extract(req);
    const b = new OfflineExtractor().extract(structuredClone(req));
    expect(b).toEqual(a);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  const nasty = [
    'x'.repeat(1_000_000),
    `${'skip '.repeat(200_000)}ann@example.com`,
    '\u0000\u0007\u001b[2J\r\n',
    '🙃👍🏽🇺🇸‍',
    '\u202eplease talk to a human\u202c',
    'مرحبا، اسمي آن ann@example.com',
    '\ud800\udfff\ud800',
  ];

  it('never throws on hostile text, for any question type', () => {
    const all = [name, email, phone, website, budget, facility, q('when', { type: 'date' }), q('ok', { type: 'boolean' })];
    for (const text of nasty) {
      for (const current of [null, ...all]) {
        const p = extractor.extract(request(text, current, all.filter((o) => o !== current), { paths }));
        expect(p.extractor).toBe('rules');
      }
    }
  });

  it('keeps a megabyte-long text answer whole and reads nothing else from it', () => {
    const text = `${'x'.repeat(1_000_000)} ann@example.com`;
    const p = run(text, q('notes'), [email], { paths });
    expect(p.updates).toHaveLength(1);
    expect(p.updates[0]!.value).toBe(text);
  });

  it('reads answers through control and bidi characters', () => {
    expect(run('\u200fann@example.com\u200f', email).updates[0]?.value).toBe('ann@example.com');
    expect(run('\u202eplease talk to a human\u202c', q('issue')).escalate).toBeDefined();
  });
});
