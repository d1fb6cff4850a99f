// Embeds the Questline engine in a plain Node script: compile a flow given as
// an object, then hold a conversation in memory with the offline extractor.
// Run: node examples/engine-script.mjs   (after `npm install questline`)
import { converse, formatDiagnostic, openFlow } from 'questline';

const opened = openFlow({
  version: 'v1',
  id: 'flow.contact',
  nodes: [
    { id: 'q.name', type: 'question', key: 'name', prompt: 'What is your name?' },
    { id: 'q.email', type: 'question', key: 'email', prompt: 'And your email?', answer: { type: 'email' } },
    { id: 'n.done', type: 'terminal', say: 'Thanks {{answers.name}}, we will be in touch.' },
  ],
});
if (!opened.ok) {
  for (const d of opened.diagnostics) console.error(formatDiagnostic(d));
  process.exit(1);
}

const chat = converse(opened.flow);
let reply = await chat.start();
reply.messages.forEach((m) => console.log(`bot: ${m.text}`));
for (const text of ['Ada Lovelace', 'not an email', 'ada@example.org']) {
  console.log(`you: ${text}`);
  reply = await chat.send(text);
  reply.messages.forEach((m) => console.log(`bot: ${m.text}`));
}
console.log(JSON.stringify({ status: reply.status, answers: reply.answers }));
