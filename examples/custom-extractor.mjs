// An Extractor of your own in place of the offline rules: it reads a visitor's
// message into proposed answers, and the engine still validates every one
// before it is kept. This one understands "key: value" lines (a stand-in for
// your model or parser) and hands anything else to the offline rules.
// Run: node examples/custom-extractor.mjs   (after `npm install questline`)
import { converse, OfflineExtractor, openFlow } from 'questline';

const rules = new OfflineExtractor();

/** @type {import('questline').Extractor} */
const keyValue = {
  name: 'key-value',
  async extract(request) {
    const known = new Set([request.current, ...request.open].filter(Boolean).map((q) => q.key));
    const updates = [...request.text.matchAll(/(\w+)\s*:\s*([^,\n]+)/g)]
      .filter(([, key]) => known.has(key))
      .map(([whole, key, raw]) => {
        const value = raw.trim();
        // proposals carry typed values: the engine checks them against the question's answer type
        return { key, value: /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value, confidence: 1, evidence: whole };
      });
    return updates.length ? { extractor: 'key-value', updates, unknown: [] } : rules.extract(request);
  },
};

const opened = openFlow({
  version: 'v1',
  id: 'flow.order',
  nodes: [
    { id: 'q.product', type: 'question', key: 'product', prompt: 'Which product?' },
    { id: 'q.quantity', type: 'question', key: 'quantity', prompt: 'How many?', answer: { type: 'integer', min: 1 } },
    { id: 'q.city', type: 'question', key: 'city', prompt: 'Delivered to which city?' },
    { id: 'n.done', type: 'terminal', say: '{{answers.quantity}} × {{answers.product}} to {{answers.city}}: noted.' },
  ],
});
if (!opened.ok) throw new Error(JSON.stringify(opened.diagnostics));

const chat = converse(opened.flow, { extractor: keyValue });
let reply = await chat.start();
reply.messages.forEach((m) => console.log(`bot: ${m.text}`));
// one message answers three questions; the quantity 0 is not kept (the flow's min is 1, checked by the engine, not the extractor)
for (const text of ['product: lamp, quantity: 0, city: Lyon', 'quantity: 4']) {
  console.log(`you: ${text}`);
  reply = await chat.send(text);
  reply.messages.forEach((m) => console.log(`bot: ${m.text}`));
}
console.log(JSON.stringify({ status: reply.status, answers: reply.answers }));
