import { describe, expect, it } from 'vitest';
import { sessionFromJson, sessionToJson } from '../../server/engine/session.ts';
import { turn } from '../../server/engine/engine.ts';
import { answer, begin, command, deepFreeze, end, eventTypes, flowOf, lastAsk, NOW, q, texts, valueOf } from '../support/engine-harness.ts';

describe('starting', () => {
  it('speaks first: runs from the entry to the first question, sending the say of nodes passed on the way', () => {
    const flow = flowOf({
      nodes: [{ id: 'n.hi', type: 'decision', say: 'Welcome!' }, { id: 'sg', type: 'subgraph', ref: 's', say: 'A few questions.' }, end()],
      subgraphs: { s: { nodes: [q('q.a', 'a', { prompt: 'First?' })] } },
    });
    const r = begin(flow);
    expect(texts(r)).toEqual(['Welcome!', 'A few questions.', 'First?']);
    expect(r.session.node).toBe('q.a');
    expect(r.session.stack).toEqual([{ node: 'sg', ref: 's' }]);
    expect(r.session.status).toBe('active');
  });

  it('every event carries the turn number and a node id', () => {
    const flow = flowOf({ nodes: [q('q.a', 'a'), end()] });
    const r = answer(flow, begin(flow).session, { a: 'x' });
    for (const e of r.events) {
      expect(e.turn).toBe(1);
      expect(typeof e.node).toBe('string');
    }
  });
});

describe('skipping', () => {
  it('skips a question whose key was answered earlier, unless always_ask', () => {
    const flow = flowOf({ nodes: [q('q.name', 'name'), q('q.email', 'email', { answer: { type: 'email' } }), q('q.again', 'confirm', { always_ask: true }), end()] });
    const r = answer(flow, begin(flow).session, { name: 'Ann', email: 'ann@example.com' });
    expect(r.session.node).toBe('q.again');
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'node_exit', node: 'q.email', skipped: 'answered' }));
  });

  it('skips a question whose when is false and evaluates its edges with its own key as null', () => {
    const flow = flowOf({
      nodes: [q('q.age', 'age', { answer: { type: 'integer' } }), q('q.guardian', 'guardian', { when: 'answers.age < 18' }), end('n.adult'), end('n.minor')],
      edges: [{ from: 'q.age', to: 'q.guardian' }, { from: 'q.guardian', to: 'n.minor', guard: 'has(answers.guardian)' }, { from: 'q.guardian', to: 'n.adult', guard: 'else' }],
    });
    const adult = answer(flow, begin(flow).session, { age: 40 });
    expect(adult.session.status).toBe('completed');
    expect(adult.session.outcome).toBe('completed');
    expect(adult.session.node).toBe('n.adult');
    const minor = answer(flow, begin(flow).session, { age: 12 });
    expect(minor.session.node).toBe('q.guardian');
  });
});

describe('validation before commit', () => {
  const flow = flowOf({
    nodes: [
      q('q.email', 'email', { answer: { type: 'email' }, prompt: ['Your email?', 'What email can we reach you at?'] }),
      q('q.age', 'age', { answer: { type: 'integer', min: 0, max: 120 }, validate: [{ expr: 'value >= 18', message: 'You must be 18 or older.' }], invalid_prompt: 'How old are you, in years?' }),
      end(),
    ],
  });

  it('a wrong value commits nothing, keeps the node, emits validation_failed and re-asks with the reason and the next prompt variant', () => {
    const r = answer(flow, begin(flow).session, { email: 'not-an-email' });
    expect(r.session.answers.has('email')).toBe(false);
    expect(r.session.node).toBe('q.email');
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'validation_failed', key: 'email', attempt: 1 }));
    expect(lastAsk(r)).toMatchObject({ kind: 'invalid', text: "That doesn't look like an email address. What email can we reach you at?" });
  });

  it('a failing validate rule re-asks with invalid_prompt when the question has one', () => {
    const s = answer(flow, begin(flow).session, { email: 'ann@example.com' }).session;
    const r = answer(flow, s, { age: 15 });
    expect(r.session.answers.has('age')).toBe(false);
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'validation_failed', reason: 'You must be 18 or older.' }));
    expect(lastAsk(r)?.text).toBe('How old are you, in years?');
    expect(valueOf(answer(flow, r.session, { age: 30 }).session, 'age')).toBe(30);
  });

  it('rejects out-of-range and wrongly typed values with a reason', () => {
    const s = answer(flow, begin(flow).session, { email: 'ann@example.com' }).session;
    expect(answer(flow, s, { age: 300 }).events).toContainEqual(expect.objectContaining({ type: 'validation_failed', reason: expect.stringContaining('between 0 and 120') }));
    expect(answer(flow, s, { age: '30' }).session.answers.has('age')).toBe(false);
  });

  it('records provenance with every committed answer', () => {
    const r = turn(flow, begin(flow).session, { kind: 'message', text: '  ann@example.com ', now: NOW,
      proposal: { extractor: 'rules', updates: [{ key: 'email', value: 'ann@example.com', confidence: 1 }], unknown: [] } });
    expect(r.session.answers.get('email')).toEqual({ value: 'ann@example.com', turn: 1, source: 'user', extractor: 'rules', confidence: 1, text: 'ann@example.com', validation: 'passed' });
  });

  it('after max_attempts (default 3) follows the invalid edge, else offers a way forward and escalates after as many again; attempts reset on re-entry', () => {
    const withEdge = flowOf({
      nodes: [q('q.n', 'n', { answer: { type: 'integer' } }), end('n.ok'), q('q.help', 'help')],
      edges: [{ from: 'q.n', to: 'n.ok' }, { from: 'q.n', to: 'q.help', on: 'invalid' }, { from: 'q.help', to: 'n.ok' }],
    });
    let s = begin(withEdge).session;
    for (let i = 0; i < 2; i++) s = answer(withEdge, s, { n: 'x' }).session;
    expect(s.attempts).toBe(2);
    const third = answer(withEdge, s, { n: 'x' });
    expect(third.session.node).toBe('q.help');
    expect(third.session.attempts).toBe(0);
    const noEdge = flowOf({ nodes: [q('q.n', 'n', { answer: { type: 'integer' }, max_attempts: 2 }), end()] });
    let t = begin(noEdge).session;
    t = answer(noEdge, t, { n: 'x' }).session;
    // out of attempts: still open, the re-ask says what the visitor can do, with a chip for a person
    const stuck = answer(noEdge, t, { n: 'x' });
    expect(stuck.session.status).toBe('active');
    expect(stuck.effects.at(-1)).toMatchObject({ type: 'ask', text: expect.stringMatching(/talk to a person from our team/), quickReplies: ['Talk to a human'] });
    // a usable reply after that is still taken
    expect(answer(noEdge, stuck.session, { n: 7 }).session.status).toBe('completed');
    const r = answer(noEdge, answer(noEdge, stuck.session, { n: 'x' }).session, { n: 'x' });
    expect(r.session.status).toBe('escalated');
    expect(r.effects).toContainEqual(expect.objectContaining({ type: 'escalate' }));
  });

  it('chit-chat (no proposal) counts as an unparseable answer', () => {
    const r = answer(flow, begin(flow).session, {});
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'validation_failed', key: 'email' }));
    expect(r.session.attempts).toBe(1);
  });

  it('uses named validators from the registry and fails closed when one is missing', () => {
    const f = flowOf({ nodes: [q('q.code', 'code', { validate: [{ name: 'checksum', message: 'Invalid code.' }] }), end()] });
    const validators = { checksum: (v: unknown) => (String(v).endsWith('7') ? null : 'bad checksum') };
    expect(answer(f, begin(f).session, { code: 'AB7' }, {}, { validators }).session.status).toBe('completed');
    expect(answer(f, begin(f).session, { code: 'AB1' }, {}, { validators }).events).toContainEqual(expect.objectContaining({ type: 'validation_failed', reason: 'Invalid code.' }));
    expect(answer(f, begin(f).session, { code: 'AB7' }).session.answers.has('code')).toBe(false);
  });
});

describe('proposals the engine refuses', () => {
  const flow = flowOf({ nodes: [q('q.name', 'name'), q('q.age', 'age', { answer: { type: 'integer' } }), q('q.kid', 'school', { when: 'answers.age < 18' }), end()] });

  it('a proposal for an unknown key, a closed key or a key that does not apply commits nothing and is an event with a reason', () => {
    let s = answer(flow, begin(flow).session, { name: 'Ann' }).session;
    s = answer(flow, s, { age: 40 }).session;
    expect(s.status).toBe('completed');
    const fresh = begin(flow).session;
    const r = answer(flow, fresh, { name: 'Ann', ghost: 1, __proto__x: 2 }, { extractor: 'anthropic' });
    expect(r.events.filter((e) => e.type === 'llm_proposal_rejected').map((e) => e.key)).toEqual(['ghost', '__proto__x']);
    expect(r.session.answers.has('ghost')).toBe(false);
    const after = answer(flow, r.session, { age: 40, name: 'Bob' }, { extractor: 'rules' });
    expect(after.events).toContainEqual(expect.objectContaining({ type: 'proposal_rejected', key: 'name', reason: "'name' is already answered" }));
    expect(valueOf(after.session, 'name')).toBe('Ann');
  });

  it('takes an answer to a later open question given early, then skips it', () => {
    const r = answer(flow, begin(flow).session, { name: 'Ann', age: 40 });
    expect(r.session.status).toBe('completed');
  });
});

describe('optional questions', () => {
  const flow = flowOf({ nodes: [q('q.note', 'note', { required: false }), q('q.must', 'must'), end()] });

  it('an unknown answer to an optional question records it as skipped (null)', () => {
    const r = answer(flow, begin(flow).session, {}, { unknown: ['note'] });
    expect(r.session.answers.get('note')).toMatchObject({ value: null, validation: 'skipped' });
    expect(eventTypes(r)).toContain('answer_skipped');
    expect(r.session.node).toBe('q.must');
  });

  it('the skip command skips an optional question and refuses to skip a required one', () => {
    const s = command(flow, begin(flow).session, 'skip').session;
    expect(s.node).toBe('q.must');
    const r = command(flow, s, 'skip');
    expect(r.session.node).toBe('q.must');
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'validation_failed', reason: 'This one is needed to continue.' }));
  });
});

describe('constraints', () => {
  const flow = flowOf({
    nodes: [q('q.email', 'email', { answer: { type: 'email' }, required: false }), q('q.phone', 'phone', { answer: { type: 'phone' }, required: false }), end()],
    constraints: [{ oneOf: [['email'], ['phone']], message: 'Please give an email or a phone number.' }],
  });

  it('oneOf fails only when the last of its keys is left blank, and then commits nothing', () => {
    const s = answer(flow, begin(flow).session, {}, { unknown: ['email'] }).session;
    expect(s.node).toBe('q.phone');
    const r = answer(flow, s, {}, { unknown: ['phone'] });
    expect(r.session.answers.has('phone')).toBe(false);
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'validation_failed', reason: 'Please give an email or a phone number.' }));
    expect(answer(flow, r.session, { phone: '+14155550123' }).session.status).toBe('completed');
  });

  it('an expression judges the answer a message gives to a key it names, not answers to other keys', () => {
    const ranged = flowOf({
      nodes: [q('q.min', 'min', { answer: { type: 'integer' } }), q('q.max', 'max', { answer: { type: 'integer' } }), q('q.note', 'note'), end()],
      constraints: [{ name: 'range', expr: 'answers.max >= answers.min', message: 'The most must be at least the least.' }],
    });
    const s = answer(ranged, begin(ranged).session, { min: 10 }).session;
    const low = answer(ranged, s, { max: 5 });
    expect(low.session.answers.has('max')).toBe(false);
    expect(low.session.node).toBe('q.max');
    expect(low.events).toContainEqual(expect.objectContaining({ type: 'validation_failed', reason: 'The most must be at least the least.' }));
    const ok = answer(ranged, low.session, { max: 20 });
    expect(ok.session.node).toBe('q.note');
    expect(answer(ranged, ok.session, { note: 'fine' }).session.status).toBe('completed');
  });
});

describe('templates', () => {
  it('fills {{answers.KEY}} and {{context.KEY}} with plain text', () => {
    const flow = flowOf({ nodes: [q('q.name', 'name'), q('q.next', 'next', { prompt: 'Thanks {{answers.name}} from {{context.clinic}}! <b>{{answers.missing}}</b>' }), end()] });
    const r = answer(flow, begin(flow, { context: { clinic: 'Northside' } }).session, { name: '<script>Ann</script>' });
    expect(lastAsk(r)?.text).toBe('Thanks <script>Ann</script> from Northside! <b></b>');
  });
});

describe('graph traversal', () => {
  it('enters nested subgraphs and returns through __exit__ to each caller in turn', () => {
    const flow = flowOf({
      nodes: [{ id: 'sg.outer', type: 'subgraph', ref: 'outer' }, q('q.after', 'after'), end()],
      subgraphs: {
        outer: { nodes: [q('q.o', 'o'), { id: 'sg.inner', type: 'subgraph', ref: 'inner' }, q('q.o2', 'o2')] },
        inner: { nodes: [q('q.i', 'i')] },
      },
    });
    let r = begin(flow);
    r = answer(flow, r.session, { o: 'x' });
    expect(r.session.stack.map((f) => f.ref)).toEqual(['outer', 'inner']);
    r = answer(flow, r.session, { i: 'x' });
    expect(r.session.node).toBe('q.o2');
    expect(r.session.stack.map((f) => f.ref)).toEqual(['outer']);
    r = answer(flow, r.session, { o2: 'x' });
    expect(r.session.node).toBe('q.after');
    expect(r.session.stack).toEqual([]);
    expect(eventTypes(r)).toContain('subgraph_exit');
  });

  it('takes the first edge whose guard holds, else the else edge, and records guard outcomes', () => {
    const flow = flowOf({
      nodes: [q('q.n', 'n', { answer: { type: 'integer' } }), end('n.big'), end('n.mid'), end('n.small')],
      edges: [{ from: 'q.n', to: 'n.big', guard: 'answers.n > 100' }, { from: 'q.n', to: 'n.mid', guard: 'answers.n > 10' }, { from: 'q.n', to: 'n.small', guard: 'else' }],
    });
    const r = answer(flow, begin(flow).session, { n: 50 });
    expect(r.session.node).toBe('n.mid');
    expect(r.events.filter((e) => e.type === 'guard').map((e) => e.result)).toEqual([false, true]);
    expect(answer(flow, begin(flow).session, { n: 5 }).session.node).toBe('n.small');
  });

  it('a routes decision follows the case of the answer', () => {
    const flow = flowOf({
      nodes: [q('q.size', 'size', { answer: { type: 'enum', options: ['small', 'large'] } }),
        { id: 'd', type: 'decision', routes: { on: 'answers.size', cases: { small: 'n.s', large: 'n.l' } } }, end('n.s'), end('n.l')],
      edges: [{ from: 'q.size', to: 'd' }],
    });
    expect(answer(flow, begin(flow).session, { size: 'large' }).session.node).toBe('n.l');
  });

  it('a node without edges ends the conversation as completed', () => {
    const flow = flowOf({ nodes: [q('q.a', 'a')] });
    const r = answer(flow, begin(flow).session, { a: 'x' });
    expect(r.session.status).toBe('completed');
    expect(r.effects).toContainEqual(expect.objectContaining({ type: 'complete', status: 'completed', answers: { a: 'x' } }));
  });

  it('when no edge matches at run time the session errors and escalates with the node and a snapshot', () => {
    const flow = flowOf({
      nodes: [q('q.n', 'n', { answer: { type: 'integer' } }), end()],
      edges: [{ from: 'q.n', to: 'n.end', guard: 'answers.n > 100' }],
    });
    const r = answer(flow, begin(flow).session, { n: 5 });
    expect(r.session.status).toBe('error');
    const error = r.events.find((e) => e.type === 'error')!;
    expect(error.node).toBe('q.n');
    expect(error.snapshot).toMatchObject({ node: 'q.n', answered: ['n'] });
    expect(r.effects).toContainEqual(expect.objectContaining({ type: 'escalate' }));
  });

  it('a terminal keeps its custom outcome beside the status', () => {
    const flow = flowOf({ nodes: [q('q.a', 'a'), end('n.ref', { outcome: 'urgent_care_referral', say: 'Please go to urgent care.' })] });
    const r = answer(flow, begin(flow).session, { a: 'x' });
    expect(r.session).toMatchObject({ status: 'completed', outcome: 'urgent_care_referral' });
    expect(texts(r)).toContain('Please go to urgent care.');
  });

  it('escalated and abandoned terminals set those statuses', () => {
    for (const outcome of ['escalated', 'abandoned'] as const) {
      const flow = flowOf({ nodes: [q('q.a', 'a'), end('n.x', { outcome })] });
      expect(answer(flow, begin(flow).session, { a: 'x' }).session.status).toBe(outcome);
    }
  });

  it('a message after the end gets a polite reply and changes nothing', () => {
    const flow = flowOf({ nodes: [q('q.a', 'a'), end()] });
    const done = answer(flow, begin(flow).session, { a: 'x' }).session;
    const r = answer(flow, done, { a: 'y' });
    expect(r.session).toBe(done);
    expect(r.events).toEqual([]);
    expect(texts(r)[0]).toMatch(/complete/);
  });

  it('a cycle with a way out runs until it leaves; the step limit stops a flow that would loop within one turn', () => {
    const loop = flowOf({
      nodes: [q('q.more', 'more', { answer: { type: 'boolean' }, always_ask: true }), end()],
      edges: [{ from: 'q.more', to: 'q.more', guard: 'answers.more == true' }, { from: 'q.more', to: 'n.end', guard: 'else' }],
    });
    let s = answer(loop, begin(loop).session, { more: true }).session;
    expect(s.node).toBe('q.more');
    s = answer(loop, s, { more: false }).session;
    expect(s.status).toBe('completed');
    // decisions that bounce between each other until a key is answered: legal (a way out exists), but a turn must stop
    const bounce = flowOf({
      nodes: [q('q.go', 'go', { answer: { type: 'boolean' } }), { id: 'd.a', type: 'decision' }, { id: 'd.b', type: 'decision' }, end()],
      edges: [{ from: 'q.go', to: 'd.a' }, { from: 'd.a', to: 'n.end', guard: "context.stop == 'yes'" }, { from: 'd.a', to: 'd.b', guard: 'else' }, { from: 'd.b', to: 'd.a' }],
    });
    const r = answer(bounce, begin(bounce).session, { go: true }, {}, { maxSteps: 50 });
    expect(r.session.status).toBe('error');
    expect(r.events.find((e) => e.type === 'error')?.reason).toMatch(/more than 50 steps/);
  });
});

describe('commands', () => {
  const flow = flowOf({
    commands: { back: ['oops'] },
    nodes: [q('q.a', 'a'), q('q.b', 'b'), q('q.c', 'c'), end()],
  });

  it('back undoes the last committed answer and re-asks it', () => {
    let s = answer(flow, begin(flow).session, { a: '1' }).session;
    s = answer(flow, s, { b: '2' }).session;
    const r = command(flow, s, 'back');
    expect(r.session.node).toBe('q.b');
    expect(r.session.answers.has('b')).toBe(false);
    expect(valueOf(r.session, 'a')).toBe('1');
    expect(lastAsk(r)?.text).toBe('b?');
    const twice = command(flow, r.session, 'back');
    expect(twice.session.node).toBe('q.a');
    expect(twice.session.answers.size).toBe(0);
  });

  it('back then the same answer gives the same state as before', () => {
    let s = answer(flow, begin(flow).session, { a: '1' }).session;
    const before = answer(flow, s, { b: '2' }).session;
    s = command(flow, before, 'back').session;
    const again = answer(flow, s, { b: '2' }).session;
    const strip = (x: typeof s) => ({ ...sessionToJson(x), recent: undefined, turn: 0, checkpoints: x.checkpoints.map((c) => ({ ...c, turn: 0 })), answers: Object.fromEntries([...x.answers].map(([k, v]) => [k, v.value])) });
    expect(strip(again)).toEqual(strip(before));
  });

  it('restart begins again with the same context; human escalates; cancel abandons once confirmed', () => {
    const s = answer(flow, begin(flow, { context: { site: 'x' } }).session, { a: '1' }).session;
    const restarted = command(flow, s, 'restart');
    expect(restarted.session).toMatchObject({ node: 'q.a', status: 'active', context: { site: 'x' } });
    expect(restarted.session.answers.size).toBe(0);
    expect(command(flow, s, 'human').session.status).toBe('escalated');
    // cancel asks first; cancelling again confirms
    const asked = command(flow, s, 'cancel').session;
    expect(asked).toMatchObject({ status: 'active', confirming: 'cancel' });
    expect(command(flow, asked, 'cancel').session).toMatchObject({ status: 'abandoned', outcome: 'abandoned' });
  });
});

describe('purity', () => {
  const flow = flowOf({
    paths: { options: { buy: { examples: ['buy'] }, help: { examples: ['help'] } } },
    nodes: [q('q.a', 'a'), { id: 'd', type: 'decision' }, q('q.b', 'b', { answer: { type: 'integer' } }), end('n.buy'), end('n.help')],
    edges: [{ from: 'q.a', to: 'd' }, { from: 'd', to: 'q.b', guard: "path == 'buy'" }, { from: 'd', to: 'n.help', guard: 'else' }, { from: 'q.b', to: 'n.buy' }],
  });

  it('never mutates its inputs: frozen session and input give the same result as unfrozen ones', () => {
    const s0 = begin(flow).session;
    const input = { kind: 'message' as const, text: 'hi', now: NOW, proposal: { extractor: 'test', updates: [{ key: 'a', value: 'x' }], unknown: [], pathVote: { path: 'buy' } } };
    const plain = turn(flow, s0, structuredClone(input));
    const frozen = turn(flow, deepFreeze(begin(flow).session), deepFreeze(structuredClone(input)));
    expect(sessionToJson(frozen.session)).toEqual(sessionToJson(plain.session));
    expect(frozen.events).toEqual(plain.events);
  });

  it('the same inputs give a byte-identical session and trace', () => {
    const run = () => {
      const trace: unknown[] = [];
      let r = begin(flow);
      trace.push(r.events);
      for (const updates of [{ a: 'x' }, { b: 'oops' }, { b: 3 }]) {
        r = answer(flow, r.session, updates, { pathVote: { path: 'buy', confidence: 0.9 } });
        trace.push(r.events, r.effects);
      }
      return JSON.stringify({ session: sessionToJson(r.session), trace });
    };
    expect(run()).toBe(run());
  });

  it('a session survives a round trip through JSON unchanged', () => {
    const s = answer(flow, begin(flow).session, { a: 'x' }).session;
    const back = sessionFromJson(JSON.parse(JSON.stringify(sessionToJson(s))));
    expect(sessionToJson(back)).toEqual(sessionToJson(s));
  });

  it('refuses a session pinned to another revision', () => {
    const other = flowOf({ nodes: [q('q.a', 'a', { prompt: 'changed' }), end()] });
    expect(() => answer(other, begin(flow).session, {})).toThrow(/pinned to revision/);
  });
});

describe('paths in traversal', () => {
  const flow = flowOf({
    paths: { prompt: 'Buy or help?', options: { buy: { label: 'Buy', examples: ['buy'] }, help: { label: 'Help', examples: ['help'] } } },
    nodes: [q('q.a', 'a'), { id: 'd', type: 'decision' }, end('n.buy'), end('n.help')],
    edges: [{ from: 'q.a', to: 'd' }, { from: 'd', to: 'n.buy', guard: "path == 'buy'" }, { from: 'd', to: 'n.help', guard: "path == 'help'" }],
  });

  it('a decision that routes on path asks the path prompt while no path is known; the answer is a vote it then follows', () => {
    const r = answer(flow, begin(flow).session, { a: 'x' });
    expect(r.session.node).toBe('d');
    expect(lastAsk(r)).toMatchObject({ text: 'Buy or help?', quickReplies: ['Buy', 'Help'] });
    const chosen = answer(flow, r.session, {}, { pathVote: { path: 'help', confidence: 0.7 } });
    expect(chosen.session.path).toMatchObject({ tentative: 'help', locked: false });
    expect(chosen.session.node).toBe('n.help');
    expect(eventTypes(chosen)).toEqual(expect.arrayContaining(['path_vote', 'path_switch']));
    expect(chosen.events).toContainEqual(expect.objectContaining({ type: 'guard', tentativePath: 'help', result: true }));
  });

  it('does not ask the path question when the answers already decide the route', () => {
    const mixed = flowOf({
      paths: { prompt: 'Buy or help?', options: { buy: { examples: ['buy'] }, help: { examples: ['help'] } } },
      nodes: [q('q.a', 'a'), { id: 'd', type: 'decision' }, end('n.buy'), end('n.help')],
      edges: [{ from: 'q.a', to: 'd' }, { from: 'd', to: 'n.buy', guard: "answers.a == 'buy' || path == 'buy'" }, { from: 'd', to: 'n.help', guard: 'else' }],
    });
    expect(answer(mixed, begin(mixed).session, { a: 'buy' }).session.node).toBe('n.buy');
    expect(answer(mixed, begin(mixed).session, { a: 'other' }).session.node).toBe('d');
  });

  it('votes in earlier turns lock the path so the decision routes without asking', () => {
    let s = answer(flow, begin(flow).session, {}, { pathVote: { path: 'buy' } }).session;
    expect(s.path).toMatchObject({ tentative: 'buy', locked: false });
    s = answer(flow, s, { a: 'x' }, { pathVote: { path: 'buy' } }).session;
    expect(s.path.locked).toBe(true);
    expect(s.node).toBe('n.buy');
  });
});

describe('recent lines (context for extractors)', () => {
  it('keeps each line on one line (runs of spaces, tabs and newlines folded) with email addresses and pii answers masked', () => {
    const flow = flowOf({ nodes: [q('q.name', 'name', { pii: true }), q('q.note', 'note'), q('q.more', 'more'), end()] });
    const s1 = answer(flow, begin(flow).session, { name: 'Ann Lee' }).session;
    const say = (session: typeof s1, text: string, value: string) =>
      turn(flow, session, { kind: 'message', text, now: NOW, proposal: { extractor: 'test', updates: [{ key: session.node === 'q.note' ? 'note' : 'more', value }], unknown: [] } }).session;
    const s2 = say(s1, 'mail\tme at\n\nann@x.io,  Ann Lee   says hi', 'x');
    const s3 = say(s2, 'plain words,\tone tab', 'y');
    const users = (s3.recent ?? []).filter((l) => l.role === 'user').map((l) => l);
    expect(users[0]).toMatchObject({ pii: true, text: '' }); // the turn that gave a pii answer is withheld
    expect(users[1]!.text).toBe('mail me at [pii], [pii] says hi');
    expect(users[2]!.text).toBe('plain words, one tab');
    expect((s3.recent ?? []).filter((l) => l.role === 'bot').map((l) => l.text)).toContain('more?');
  });
});
