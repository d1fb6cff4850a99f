// Your own named validator and action, registered with a conversation. The
// flow (signup.flow.json) names them: `validate: [{ name: "work_email" }]`
// on a question and `call: "pricing.quote"` on an action node. A name the
// flow uses that you do not register is an error when the flow is loaded
// (`questline validate --config`, server start), never mid-conversation.
// Run: node examples/custom-validator-action.mjs   (after `npm install questline`)
import { checkImplementations, converse, formatDiagnostic, openFlow } from 'questline';

/** @type {import('questline').ConverseOptions['validators']} */
const validators = {
  // A validator is pure and synchronous: an error message, or null to accept.
  work_email: (value, args) => {
    const domain = String(value).split('@')[1]?.toLowerCase() ?? '';
    return args.blocked.includes(domain) ? `${domain} is a personal address` : null;
  },
};

/** @type {import('questline').ActionRegistry} */
const actions = {
  // An action gets the node's `input_map` values and returns fields for its `output_map`.
  'pricing.quote': async ({ seats }) => ({ total: Number(seats) * 12 }),
};

const opened = openFlow(new URL('./signup.flow.json', import.meta.url));
if (!opened.ok) {
  for (const d of opened.diagnostics) console.error(formatDiagnostic(d));
  process.exit(1);
}
const missing = checkImplementations(opened.flow, { validators: Object.keys(validators), actions: Object.keys(actions) });
if (missing.length) {
  for (const d of missing) console.error(formatDiagnostic(d));
  process.exit(1);
}

const chat = converse(opened.flow, { validators, actions });
let reply = await chat.start();
reply.messages.forEach((m) => console.log(`bot: ${m.text}`));
for (const text of ['alice@gmail.com', 'alice@acme.io', '12 seats']) {
  console.log(`you: ${text}`);
  reply = await chat.send(text);
  reply.messages.forEach((m) => console.log(`bot: ${m.text}`));
}
console.log(JSON.stringify({ status: reply.status, answers: reply.answers }));
