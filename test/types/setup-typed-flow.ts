// setup({ validators, actions }).flow(document): the flow document is typed by
// the implementations given, so a misspelled validator or action is a
// TypeScript error where the flow is written. Compiled with the server
// (`tsc -p .`, run by test/unit/typecheck.test.ts): each @ts-expect-error
// below fails the build if the mistake under it stops being an error.
import { setup } from '../../server/api/index.ts';

const app = setup({
  validators: { work_email: (value) => (String(value).endsWith('@gmail.com') ? 'a work address, please' : null) },
  actions: { 'pricing.quote': async ({ seats }) => ({ total: Number(seats) * 12 }) },
});

/** The flow as the docs write it: names the implementations given. */
export const good = () => app.flow({
  version: 'v1',
  id: 'flow.signup',
  nodes: [
    { id: 'q.email', type: 'question', key: 'email', prompt: 'Work email?', answer: { type: 'email' }, validate: [{ name: 'work_email' }] },
    { id: 'a.quote', type: 'action', call: 'pricing.quote', input_map: {}, output_map: { total: 'quote_total' }, provides: ['quote_total'] },
    { id: 'n.done', type: 'terminal' },
  ],
});

/** A misspelled validator. */
export const misspelledValidator = () => app.flow({
  version: 'v1',
  id: 'flow.signup',
  nodes: [
    // @ts-expect-error: 'work_emial' is not among the validators given to setup()
    { id: 'q.email', type: 'question', key: 'email', prompt: 'Work email?', answer: { type: 'email' }, validate: [{ name: 'work_emial' }] },
    { id: 'n.done', type: 'terminal' },
  ],
});

/** An action nobody registered. */
export const unknownAction = () => app.flow({
  version: 'v1',
  id: 'flow.signup',
  nodes: [
    // @ts-expect-error: 'pricing.quotes' is not among the actions given to setup()
    { id: 'a.quote', type: 'action', call: 'pricing.quotes', input_map: {}, output_map: {} },
    { id: 'n.done', type: 'terminal' },
  ],
});

/** Without validators given, no named validator may be used. */
export const noValidators = () => setup({}).flow({
  version: 'v1',
  id: 'f',
  nodes: [
    // @ts-expect-error: setup() was given no validators
    { id: 'q', type: 'question', key: 'k', prompt: 'K?', answer: { type: 'text' }, validate: [{ name: 'anything' }] },
  ],
});

/** A field the flow language does not have is an error too. */
export const unknownField = () => app.flow({
  version: 'v1',
  id: 'f',
  // @ts-expect-error: `colour` is not a field of a terminal node
  nodes: [{ id: 'n', type: 'terminal', colour: 'red' }],
});
