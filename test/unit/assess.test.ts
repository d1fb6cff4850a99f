import { describe, expect, it } from 'vitest';
import { combineDraft, judgeOffline } from '../../server/engine/assess.ts';
import { extractionRequest } from '../../server/engine/extraction.ts';
import { progressAt } from '../../server/engine/progress.ts';
import { compileText } from '../../server/flow/document.ts';
import { outputsJsonSchema } from '../../server/flow/json-schema.ts';
import { answer, begin, command, deepFreeze, end, eventTypes, flowOf, lastAsk, q, valueOf } from '../support/engine-harness.ts';

// Assessed answers (flow-ir.md `assess`): the engine judges — by the model's
// score in the proposal, else by the offline rules — and re-asks with feedback.

const flow = flowOf({
  nodes: [
    q('q.story', 'story', { assess: { criteria: 'what and where', threshold: 0.7, max_refinements: 1, feedback_key: 'story_feedback', min_words: 4, must_mention: ['court'] } }),
    q('q.secret', 'secret', { pii: true, assess: { criteria: 'long enough', min_words: 3, feedback_key: 'secret_feedback' } }),
    end(),
  ],
});

describe('the offline judge', () => {
  it('scores min_words and must_mention, passing only when every rule is met', () => {
    const a = { criteria: 'x', min_words: 4, must_mention: ['court', 'pole light'] };
    expect(judgeOffline(a, 'two pole lights on court 3')).toEqual({ score: 1, passed: true });
    expect(judgeOffline(a, 'Court lights')).toEqual({ score: 0.5, passed: false, feedback: 'Could you tell me a bit more, including pole light?' });
    expect(judgeOffline(a, 'the big one near the entrance')).toMatchObject({ score: 0, passed: false, feedback: 'Could you also tell me about court and pole light?' });
    expect(judgeOffline({ criteria: 'x', must_mention: ['Café'] }, 'at the cafe')).toEqual({ score: 1, passed: true });
    // a one-word term closing a compound is mentioned ("floodlights", "Flutlichtleuchten"); inside a word it is not ("slightly")
    expect(judgeOffline({ criteria: 'x', must_mention: ['light'] }, 'the floodlights keep cutting out')).toEqual({ score: 1, passed: true });
    expect(judgeOffline({ criteria: 'x', must_mention: ['Leuchte'] }, 'die Flutlichtleuchten flackern')).toEqual({ score: 1, passed: true });
    // a term's alternatives ("Leuchte|Licht|Flutlicht"): any one mentions it; the feedback names the first
    const alt = { criteria: 'x', must_mention: ['Leuchte|Lampe|Flutlicht'] };
    expect(judgeOffline(alt, 'Unsere Flutlichtanlage flackert seit Samstag, die Lampen am Nordplatz')).toEqual({ score: 1, passed: true });
    expect(judgeOffline(alt, 'Unsere Anlage am Kunstrasen flackert seit Samstag abends')).toEqual({ score: 0, passed: false, feedback: 'Could you also tell me about Leuchte?' });
    expect(judgeOffline({ criteria: 'x', must_mention: ['light'] }, 'slightly dim')).toMatchObject({ passed: false });
    expect(judgeOffline({ criteria: 'only for the model' }, 'anything')).toBeNull();
  });

  it('joins a refinement to the answer so far', () => {
    expect(combineDraft('New lights', 'for the padel court')).toBe('New lights. for the padel court');
    expect(combineDraft('New lights.', 'By March')).toBe('New lights. By March');
    expect(combineDraft('New lights', 'new lights')).toBe('New lights');
    expect(combineDraft('New lights', 'New lights for the court')).toBe('New lights for the court');
    expect(combineDraft(3, 4)).toBe(4);
  });
});

describe('the engine with an assessed question', () => {
  it('keeps a weak answer as a draft, stores the feedback, re-asks, and accepts after max_refinements', () => {
    const s0 = deepFreeze(begin(flow).session);
    const r1 = answer(flow, s0, { story: 'lights' });
    expect(r1.session.node).toBe('q.story');
    expect(r1.session.answers.has('story')).toBe(false);
    expect(valueOf(r1.session, 'story_feedback')).toBe('Could you tell me a bit more, including court?');
    expect(r1.session.assessing).toEqual({ key: 'story', draft: 'lights', refinements: 1 });
    expect(lastAsk(r1)?.text).toBe('Could you tell me a bit more, including court? story?');
    expect(r1.events.find((e) => e.type === 'assessment')).toMatchObject({ key: 'story', by: 'rules', passed: false, outcome: 'refine', refinements: 0 });
    // feedback is not an answer for progress
    expect(progressAt(flow, r1.session.answers, r1.session.node).answered).toBe(0);
    // the extractor is told the criteria and the draft
    expect(extractionRequest(flow, r1.session, 'x', r1.session.now).current?.assess).toEqual({ criteria: 'what and where', threshold: 0.7, maxRefinements: 1, refinement: 1, draft: 'lights' });

    const r2 = answer(flow, deepFreeze(r1.session), { story: 'flicker' });
    expect(r2.events.find((e) => e.type === 'assessment')).toMatchObject({ outcome: 'max_refinements', passed: false, refinements: 1 });
    expect(valueOf(r2.session, 'story')).toBe('lights. flicker');
    expect(r2.session.assessing).toBeUndefined();
    expect(r2.session.node).toBe('q.secret');
  });

  it('follows the model\'s score against the threshold when the proposal has one', () => {
    const s0 = begin(flow).session;
    const low = answer(flow, s0, { story: 'new lights for the court please' }, { assessment: { key: 'story', score: 0.5, feedback: 'Which court?' } });
    expect(low.session.node).toBe('q.story');
    expect(lastAsk(low)?.text).toBe('Which court? story?');
    expect(low.events.find((e) => e.type === 'assessment')).toMatchObject({ by: 'model', score: 0.5, threshold: 0.7, outcome: 'refine' });
    const high = answer(flow, s0, { story: 'x' }, { assessment: { key: 'story', score: 0.9 } });
    expect(high.session.node).toBe('q.secret');
    expect(valueOf(high.session, 'story')).toBe('x'); // the model passed it, though the offline rules would not
  });

  it('judges an assessed question answered ahead by its offline rules: too short, it is asked in its turn', () => {
    const ahead = flowOf({ nodes: [q('q.name', 'name'), q('q.story', 'story', { assess: { criteria: 'c', min_words: 4 } }), end()] });
    const short = answer(ahead, begin(ahead).session, { name: 'Ann', story: 'lights' });
    expect(short.session.answers.has('story')).toBe(false);
    expect(short.events).toContainEqual(expect.objectContaining({ type: 'assessment', key: 'story', outcome: 'asked_later', ahead: true }));
    expect(short.events).toContainEqual(expect.objectContaining({ type: 'llm_proposal_rejected', key: 'story' }));
    expect(short.session.node).toBe('q.story');
    const long = answer(ahead, begin(ahead).session, { name: 'Ann', story: 'three lights on court two' });
    expect(valueOf(long.session, 'story')).toBe('three lights on court two');
    expect(long.session.status).toBe('completed');
  });

  it('a bare no while refining keeps the answer so far (the offline rules read it as nothing more to add)', async () => {
    const { OfflineExtractor } = await import('../../server/extract/offline/offline-extractor.ts');
    const r1 = answer(flow, begin(flow).session, { story: 'lights' });
    for (const [no, locale] of [['no', 'en'], ['nein.', 'de'], ['nope 👍', 'en']] as const) {
      const req = { ...extractionRequest(flow, r1.session, no, r1.session.now), locale };
      const proposal = await new OfflineExtractor().extract(req);
      expect(proposal.unknown).toContain('story');
    }
    // not while answering for the first time: a "no" to a description question is no decline of more
    const first = extractionRequest(flow, begin(flow).session, 'no', begin(flow).session.now);
    expect((await new OfflineExtractor().extract(first)).unknown).not.toContain('story');
  });

  it('"skip" while refining keeps the answer so far; back drops the refinement', () => {
    const r1 = answer(flow, begin(flow).session, { story: 'lights' });
    const skipped = command(flow, r1.session, 'skip');
    expect(valueOf(skipped.session, 'story')).toBe('lights');
    expect(skipped.events.find((e) => e.type === 'assessment')).toMatchObject({ outcome: 'user_declined' });
    const back = command(flow, r1.session, 'back');
    expect(back.session.assessing).toBeUndefined();
    expect(back.session.answers.has('story_feedback')).toBe(false);
  });

  it('keeps a pii answer\'s feedback and draft out of events and extraction requests', () => {
    const at = answer(flow, begin(flow).session, { story: 'two lights on the court' }).session;
    const r = answer(flow, at, { secret: 'abc' }, { assessment: { key: 'secret', score: 0.1, feedback: 'abc is too short' } });
    expect(eventTypes(r)).toContain('assessment');
    expect(JSON.stringify(r.events)).not.toContain('abc');
    expect(extractionRequest(flow, r.session, 'x', r.session.now).current?.assess?.draft).toBeUndefined();
  });
});

describe('feedback_key in the flow language', () => {
  it('is a text output the outputs schema lists, and may not reuse a question key', () => {
    const props = outputsJsonSchema(flow).properties as Record<string, { type?: string; description?: string }>;
    expect(props.story_feedback).toMatchObject({ type: 'string', description: "feedback on the answer to 'q.story'" });
    const bad = compileText(JSON.stringify({ version: 'v1', id: 'f', nodes: [
      { id: 'q.a', type: 'question', key: 'a', assess: { criteria: 'c', feedback_key: 'b' } },
      { id: 'q.b', type: 'question', key: 'b' },
    ] }), 'bad.flow.json');
    expect(bad.diagnostics).toContainEqual(expect.objectContaining({ code: 'conflicting_key_type', severity: 'error' }));
    expect(bad.diagnostics).toContainEqual(expect.objectContaining({ code: 'assess_offline', severity: 'warning', node: 'q.a' }));
  });
});
