// Questline mounted in an express app you already have: the API only (no demo
// page or operator console), next to your own routes, on your own http server.
// The flows folder (flows/) holds global/signup.flow.json and a tenant, demo,
// whose widget key is pk_demo_signup. A visitor then talks over REST (shown below
// with fetch) or over socket.io with the widget.
// Run: node examples/express-mount.mjs   (after `npm install questline express`)
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { createLogger, createQuestline } from 'questline/server';

const questline = await createQuestline({
  flowsDir: fileURLToPath(new URL('./flows', import.meta.url)),
  pages: false,
  logger: createLogger('warn'),
  validators: {
    work_email: (value, args) => (args.blocked.includes(String(value).split('@')[1]) ? 'personal address' : null),
  },
  actions: { 'pricing.quote': async ({ seats }) => ({ total: Number(seats) * 12 }) },
});

const app = express();
app.get('/', (_req, res) => res.send('my own home page'));
app.use(questline.handler); // /api/v1/… and /healthz
const http = createServer(app);
questline.attach(http); // socket.io for the widget
await new Promise((ready) => http.listen(0, '127.0.0.1', ready));
const base = `http://127.0.0.1:${http.address().port}`;

// A visitor's conversation over REST: start with the tenant's widget key, then one POST per message with the session token.
const post = async (path, body, headers) => {
  const res = await fetch(`${base}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return res.json();
};
const started = await post('/tenants/demo/sessions', { flow: 'flow.signup' }, { 'x-questline-key': 'pk_demo_signup' });
for (const m of started.messages) console.log(`bot: ${m.text}`);
let last = started;
for (const text of ['bob@gmail.com', 'bob@acme.io', '3']) {
  console.log(`you: ${text}`);
  last = await post(`/sessions/${started.sessionId}/messages`, { text }, { authorization: `Bearer ${started.token}` });
  for (const m of last.messages) if (m.role === 'bot') console.log(`bot: ${m.text}`);
}
const home = await (await fetch(base)).text();

await questline.close();
console.log(JSON.stringify({ home, status: last.state.status }));
