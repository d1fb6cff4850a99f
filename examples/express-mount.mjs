// Questline mounted in an express app you already have, under /chat: the API
// and the widget's bundles (no demo page or operator console), next to your
// own routes, on your own http server. The flows folder (flows/) holds
// global/signup.flow.json and a tenant, demo, whose widget key is
// pk_demo_signup. Your home page embeds the widget from /chat/widget.js; a
// visitor then talks over socket.io (the widget) or over REST (shown below
// with fetch).
// Run: node examples/express-mount.mjs           (after `npm install questline express`)
//      node examples/express-mount.mjs --serve   keeps serving: open the address it prints and chat in the widget
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { createLogger, createQuestline } from 'questline/server';

const questline = await createQuestline({
  flowsDir: fileURLToPath(new URL('./flows', import.meta.url)),
  mountPath: '/chat', // where app.use mounts it below: the widget finds its bundles and socket there
  pages: 'widget', // the widget's bundles, no demo page or console (false: the API only)
  logger: createLogger('warn'),
  validators: {
    work_email: (value, args) => (args.blocked.includes(String(value).split('@')[1]) ? 'personal address' : null),
  },
  actions: { 'pricing.quote': async ({ seats }) => ({ total: Number(seats) * 12 }) },
});

const app = express();
app.get('/', (_req, res) => res.send(`<!doctype html><title>My site</title><p>my own home page</p>
<script async src="/chat/widget.js" data-key="pk_demo_signup" data-flow="flow.signup"></script>`));
app.use('/chat', questline.handler); // /chat/api/v1/…, /chat/healthz, /chat/widget.js
const http = createServer(app);
questline.attach(http); // socket.io for the widget, at /chat/socket.io
const port = process.argv.includes('--serve') ? Number(process.env.PORT ?? 0) : 0;
await new Promise((ready) => http.listen(port, '127.0.0.1', ready));
const base = `http://127.0.0.1:${http.address().port}`;

if (process.argv.includes('--serve')) {
  console.log(`serving ${base}/ (the widget from ${base}/chat/widget.js); Ctrl-C stops`);
  process.once('SIGINT', () => questline.close().then(() => process.exit(0)));
  process.once('SIGTERM', () => questline.close().then(() => process.exit(0)));
} else {
  // A visitor's conversation over REST: start with the tenant's widget key, then one POST per message with the session token.
  const post = async (path, body, headers) => {
    const res = await fetch(`${base}/chat/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
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
  const widget = (await fetch(`${base}/chat/widget.js`)).status;

  await questline.close();
  console.log(JSON.stringify({ home: home.includes('my own home page'), widget, status: last.state.status }));
}
