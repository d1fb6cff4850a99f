import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACME_SALES_SCRIPT, chat, NORTHSIDE_KEY, type ChatClient } from '../e2e/helpers.ts';
import { describeBrowser, launchBrowser, type TestBrowser } from '../support/browser.ts';
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';

// The operator console at /admin in headless Chromium, against a real server.
// The visitor is a socket.io client (not the widget), so this suite depends
// only on the protocol. Screenshots go to test-artifacts/.

const ARTIFACTS = join(process.cwd(), 'test-artifacts');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// page.evaluate callbacks run in the page; the project compiles without the DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;

describeBrowser('operator console', () => {
  let server: TestServer;
  let browser: TestBrowser;
  const visitors: ChatClient[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [server, browser] = await Promise.all([startTestServer({ store: 'memory' }), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    for (const v of visitors) v.close();
    await browser?.close();
    await server?.dispose();
  });

  /** A visitor on /chat who has said `lines` (each acknowledged). */
  async function visitor(lines: readonly string[], opts: { key?: string; flow?: string } = {}): Promise<{ v: ChatClient; sessionId: string }> {
    const v = await chat(server.url, opts.key ? { key: opts.key } : {});
    visitors.push(v);
    const start = await v.request('session:start', { flow: opts.flow ?? 'flow.sales' });
    expect(start.ok).toBe(true);
    for (const [i, text] of lines.entries()) expect(await v.request('message', { text, clientId: `c${i}` })).toMatchObject({ ok: true });
    return { v, sessionId: start.sessionId as string };
  }

  /** Opens /admin and signs in; collects page errors and CSP violations. */
  async function signedIn(): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ width: 1440, height: 1000 });
    page.setDefaultTimeout(8_000);
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Admin key').fill(TEST_ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    await page.locator('#connection.live').waitFor();
    return { page, problems };
  }

  /** Serious and critical axe-core violations on the page as it is now. */
  async function axeScan(page: Page): Promise<Array<{ id: string; impact: string; nodes: string[] }>> {
    // axe goes in through the devtools protocol: the page's CSP allows no inline script
    await page.evaluate(AXE);
    const result = await page.evaluate(async () => {
      const r = await window.axe.run(window.document, { resultTypes: ['violations'] });
      return r.violations.map((x: any) => ({ id: x.id, impact: x.impact, nodes: x.nodes.map((n: any) => n.target.join(' ')).slice(0, 5) }));
    });
    return (result as Array<{ id: string; impact: string; nodes: string[] }>).filter((x) => x.impact === 'serious' || x.impact === 'critical');
  }

  const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 8_000, interval: 50 });
  const current = (page: Page) => page.locator('#map g.node.current').getAttribute('data-id');
  const classes = async (page: Page, selector: string) => ((await page.locator(selector).getAttribute('class')) ?? '').split(/\s+/);

  it('lists urgent sessions first, with the reason, though newer sessions came after', async () => {
    const reason = 'Red-flag symptoms reported (chest pain or trouble breathing)';
    const { v, sessionId } = await visitor(['I am having severe chest pain right now and cannot breathe'], { key: NORTHSIDE_KEY, flow: 'flow.patient_intake' });
    expect(v.lastState()).toMatchObject({ status: 'escalated', urgent: { reason } });
    // two calmer sessions started after it: newest first alone would list them above
    const calm = [await visitor([ACME_SALES_SCRIPT[0]]), await visitor([])];
    const { page, problems } = await signedIn();
    const firstRow = page.locator('#sessions-body tr').first();
    await poll(() => firstRow.getAttribute('data-row')).toBe(sessionId);
    expect(await firstRow.locator('.urgent').textContent()).toBe(`Urgent: ${reason}`);
    expect(await classes(page, '#sessions-body tr:first-child')).toContain('urgent-row');
    for (const c of calm) {
      const row = page.locator(`#sessions-body tr[data-row="${c.sessionId}"]`);
      expect(await row.count()).toBe(1);
      expect(await row.locator('.urgent').count()).toBe(0);
    }
    await page.screenshot({ path: join(ARTIFACTS, 'admin-urgent.png') });
    await firstRow.getByRole('button', { name: `session ${sessionId} (escalated)` }).click();
    await page.getByRole('heading', { name: `Session ${sessionId}` }).waitFor();
    await poll(() => page.locator('#session-alert').textContent()).toMatch(new RegExp(`^Urgent: ${reason.replace(/[()]/g, '\\$&')}\\. Escalated to a person`));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('an operator takes over an escalated session on its live flow map, replies, and hands it back', async () => {
    const { v, sessionId } = await visitor([ACME_SALES_SCRIPT[0], ACME_SALES_SCRIPT[1], 'I want to talk to a human']);
    expect(v.lastState()).toMatchObject({ status: 'escalated', nodeId: 'q.current_lighting' });
    const { page, problems } = await signedIn();

    // the list shows it as escalated; filter to escalated and open it with the keyboard
    await page.getByLabel('Status', { exact: true }).selectOption('escalated');
    const open = page.getByRole('button', { name: `session ${sessionId} (escalated)` });
    await open.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Session ${sessionId}` }).waitFor();
    await poll(() => current(page)).toBe('q.current_lighting');
    expect(await page.locator('#session-alert').textContent()).toMatch(/Escalated to a person \(user asked for a person\)/);

    // the visited path: nodes entered and edges taken, in the layout's ids
    for (const id of ['n.start', 'q.intent', 'sg.led', 'q.court_size', 'q.sport']) {
      expect(await classes(page, `#map g.node[data-id="${id}"]`), id).toContain('visited');
    }
    for (const id of ['e.start', 'e.intent.buy', 'sg.led/call', 'e.court_size.sport']) {
      expect(await classes(page, `#map g.edge[data-id="${id}"]`), id).toContain('taken');
    }
    expect(await classes(page, '#map g.node[data-id="q.budget"]')).not.toContain('visited');
    expect(await classes(page, '#map g.edge[data-id="e.budget.timeline"]')).not.toContain('taken');
    // the current node is actually on screen in the map's scroll box
    const box = await page.locator('#map g.node.current .shape').boundingBox();
    const viewport = await page.locator('#map').boundingBox();
    expect(box && viewport && box.y >= viewport.y - 1 && box.y + box.height <= viewport.y + viewport.height + 1 && box.x >= viewport.x - 1 && box.x + box.width <= viewport.x + viewport.width + 1).toBe(true);

    // provenance of an answer: value, extractor, confidence, turn and the visitor's words
    const size = page.locator('#answers-body tr[data-key="court_size"]');
    await poll(() => size.textContent()).toContain('420');
    const prov = await size.textContent();
    expect(prov).toContain('extractor rules');
    expect(prov).toMatch(/confidence \d\.\d\d/);
    expect(prov).toContain('turn 2');
    expect(prov).toContain('about 420 m2');
    await page.screenshot({ path: join(ARTIFACTS, 'admin-escalated.png'), fullPage: true });

    // the operator replies; the visitor receives it; the visitor's answer shows live
    await page.getByLabel('Reply to the visitor').fill('Hi, Sam from Acme here. <b>not bold</b>');
    await page.getByRole('button', { name: 'Send reply', exact: true }).click();
    await v.until((c) => c.messages().some((m) => m.role === 'operator' && m.text === 'Hi, Sam from Acme here. <b>not bold</b>'));
    await page.locator('#transcript li.msg-operator', { hasText: '<b>not bold</b>' }).waitFor();
    expect(await page.locator('#transcript b').count()).toBe(0);
    expect(await v.request('message', { text: 'Great, I need a quote for 4 poles', clientId: 'to-sam' })).toMatchObject({ ok: true });
    await page.locator('#transcript li.msg-user', { hasText: 'Great, I need a quote for 4 poles' }).waitFor();
    // the visitor's message waits for the operator: flagged until they reply
    await poll(() => page.locator('#session-alert').textContent()).toMatch(/The visitor is waiting for your reply \(1 unanswered message\)/);

    // hand back at a chosen question; over an unanswered message the console warns first; the bot asks it, and the map moves there
    await page.getByLabel('Hand back to the bot at').selectOption('q.pole_count');
    const warned: string[] = [];
    page.once('dialog', (d) => { warned.push(d.message()); void d.accept(); });
    await page.getByRole('button', { name: 'Hand back', exact: true }).click();
    await poll(() => warned.length).toBe(1);
    expect(warned[0]).toMatch(/1 unanswered message\. Hand back to the bot without replying\?/);
    await v.until((c) => c.messages().some((m) => m.role === 'bot' && m.nodeId === 'q.pole_count'));
    await poll(() => current(page)).toBe('q.pole_count');

    // the visitor carries on with the bot; the map follows without a reload
    expect(await v.request('message', { text: '4', clientId: 'after-1' })).toMatchObject({ ok: true });
    await poll(() => page.locator('#answers-body tr[data-key="pole_count"]').count()).toBe(1);
    await poll(() => current(page)).not.toBe('q.pole_count');
    const next = await current(page);
    expect(next).toBe(v.lastState()?.nodeId);
    expect(await classes(page, '#map g.node[data-id="q.pole_count"]')).toContain('visited');
    await page.locator('#map').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'admin-handed-back.png'), fullPage: true });
    expect(await axeScan(page)).toEqual([]);
    await page.locator('#map').screenshot({ path: join(ARTIFACTS, 'admin-flow-map.png') });

    expect(problems).toEqual([]);
    await page.close();
  });

  const NURSE_REVIEW = [
    'Jane Marie Doe', 'March 27, 1984', 'female', '(415) 555-0132', 'no',
    'I feel sick: I have had trouble breathing and a cough', 'not right now, it stopped this morning',
  ];

  /** Presses Tab until the focused element matches `selector`. */
  async function tabTo(page: Page, selector: string, max = 80): Promise<void> {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate((sel) => Boolean(window.document.activeElement?.matches(sel)), selector)) return;
    }
    throw new Error(`Tab never reached ${selector}`);
  }

  it('works with the keyboard alone: sign in, open, reply, hand back', async () => {
    const { v, sessionId } = await visitor([ACME_SALES_SCRIPT[0], ACME_SALES_SCRIPT[1], 'talk to a human']);
    const page = await browser.newPage({ width: 1280, height: 900 });
    page.setDefaultTimeout(8_000);
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Admin key').waitFor();
    // the key field has focus on arrival
    await page.keyboard.type(TEST_ADMIN_KEY);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    await page.locator(`button[data-session="${sessionId}"]`).waitFor();
    await tabTo(page, `button[data-session="${sessionId}"]`);
    await page.keyboard.press('Enter');
    await poll(() => current(page)).toBe('q.current_lighting');
    await tabTo(page, '#reply-text');
    await page.keyboard.type('Sam here, typing only');
    await page.keyboard.press('Control+Enter');
    await v.until((c) => c.messages().some((m) => m.role === 'operator' && m.text === 'Sam here, typing only'));
    await tabTo(page, '#hand-back-node');
    await page.keyboard.type('Light poles');
    expect(await page.locator('#hand-back-node').inputValue()).toBe('q.pole_count');
    await tabTo(page, '#hand-back-form button[type="submit"]');
    await page.keyboard.press('Enter');
    await v.until((c) => c.messages().some((m) => m.role === 'bot' && m.nodeId === 'q.pole_count'));
    await poll(() => current(page)).toBe('q.pole_count');
    await page.close();
  });

  it('decides an interrupt: approve with a corrected answer', async () => {
    const { v, sessionId } = await visitor(NURSE_REVIEW, { key: NORTHSIDE_KEY, flow: 'flow.patient_intake' });
    expect(v.lastState()).toMatchObject({ status: 'waiting', nodeId: 'n.nurse_review' });
    const { page, problems } = await signedIn();
    await page.goto(`${server.url}/admin#session=${sessionId}`);
    await page.getByRole('heading', { name: 'Waiting for a decision' }).waitFor();
    await poll(() => current(page)).toBe('n.nurse_review');
    await page.screenshot({ path: join(ARTIFACTS, 'admin-interrupt.png'), fullPage: true });
    expect(await axeScan(page)).toEqual([]);
    // edit: correct the phone number, then approve
    const phone = page.getByLabel('phone', { exact: true });
    await phone.fill('+14155550199');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await v.until((c) => c.lastState()?.status === 'active');
    await poll(() => page.locator('#answers-body tr[data-key="phone"]').textContent()).toContain('+14155550199');
    await poll(() => page.locator('#answers-body tr[data-key="phone"]').textContent()).toContain('operator');
    expect(await page.locator('#interrupt').isHidden()).toBe(true);
    await poll(() => current(page)).toBe(v.lastState()?.nodeId);
    expect(await classes(page, '#map g.edge[data-id="e.review.duration"]')).toContain('taken');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('decides an interrupt: reject takes the rejected edge, drawn on the map', async () => {
    const { v, sessionId } = await visitor(NURSE_REVIEW, { key: NORTHSIDE_KEY, flow: 'flow.patient_intake' });
    const { page, problems } = await signedIn();
    await page.goto(`${server.url}/admin#session=${sessionId}`);
    await page.getByRole('heading', { name: 'Waiting for a decision' }).waitFor();
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    await v.until((c) => c.lastState()?.status !== 'waiting');
    await poll(() => classes(page, '#map g.edge[data-id="e.review.rejected"]')).toContain('taken');
    expect(await classes(page, '#map g.node[data-id="n.urgent_care"]')).toContain('visited');
    expect(await page.locator('#interrupt').isHidden()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('exports completed intakes as CSV and JSON downloads, with the key in a header', async () => {
    const done = await visitor(ACME_SALES_SCRIPT);
    expect(done.v.lastState()?.status).toBe('completed');
    const { page, problems } = await signedIn();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.locator('#export-tenant').selectOption('acme');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV', exact: true }).click()]);
    expect(csv.suggestedFilename()).toBe('acme-intakes.csv');
    const csvText = readFileSync((await csv.path())!, 'utf8');
    expect(csvText.split('\r\n')[0]).toMatch(/^session_id,flow_id,revision,status,completed_at,updated_at,outcome,/);
    expect(csvText).toContain(done.sessionId);
    expect(csvText).toContain('ann@northside.edu');
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'JSON', exact: true }).click()]);
    expect(json.suggestedFilename()).toBe('acme-intakes.json');
    const body = JSON.parse(readFileSync((await json.path())!, 'utf8'));
    expect(body.intakes.map((i: { sessionId: string }) => i.sessionId)).toContain(done.sessionId);
    await poll(() => page.locator('#export-status').textContent()).toMatch(/Downloaded acme-intakes\.json: \d+ completed intake/);
    // the admin key never travels in a URL
    expect(requests.filter((u) => u.includes(TEST_ADMIN_KEY))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('refuses a wrong key and keeps the right one only in sessionStorage', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Admin key').fill('not-the-key-not-the-key');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await poll(() => page.getByRole('alert').first().textContent()).toMatch(/refused/);
    expect(await page.locator('#console').isHidden()).toBe(true);
    await page.getByLabel('Admin key').fill(TEST_ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    expect(await page.evaluate(() => window.sessionStorage.getItem('questline.adminKey'))).toBe(TEST_ADMIN_KEY);
    expect(await page.evaluate(() => window.localStorage.length)).toBe(0);
    expect(page.url()).not.toContain(TEST_ADMIN_KEY);
    // a reload stays signed in (same tab); signing out forgets the key
    await page.reload();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    expect(await page.evaluate(() => window.sessionStorage.getItem('questline.adminKey'))).toBeNull();
    await page.close();
  });

  it('has no serious or critical axe-core violations, signed out and with a session open', async () => {
    const { sessionId } = await visitor([ACME_SALES_SCRIPT[0], 'talk to a human']);
    const page = await browser.newPage({ width: 1280, height: 900 });
    const scan = () => axeScan(page);
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Admin key').waitFor();
    expect(await scan()).toEqual([]);
    await page.getByLabel('Admin key').fill(TEST_ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: `session ${sessionId} (escalated)` }).click();
    await page.locator('#map g.node.current').waitFor();
    expect(await scan()).toEqual([]);
    // narrow screens: the console stacks and still scans clean
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await scan()).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'admin-narrow.png'), fullPage: true });
    writeFileSync(join(ARTIFACTS, 'admin-axe.txt'), 'no serious or critical violations\n');
    await page.close();
  });
});
