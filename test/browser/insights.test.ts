import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACME_KEY, ACME_SALES_SCRIPT, api, NORTHSIDE_KEY } from '../e2e/helpers.ts';
import { axeViolations, describeBrowser, launchBrowser, screenshot, type TestBrowser } from '../support/browser.ts';
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';

// The console's Insights view in headless Chromium against a real server:
// sessions played over REST to known points (completed, left at the area
// question — ended by the inactivity sweep —, escalated there: three refused
// answers, then the person the bot offers) show up as totals, the worst drop-off called out in words
// and on the flow map, bars per question, re-ask reasons, completion per day;
// a visitor found by email is erased from the view. Screenshot:
// test-artifacts/insights-view.png. Then the opt-in operator alerts.

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;

const flowsDir = mkdtempSync(join(tmpdir(), 'ql-insights-flows-'));
cpSync('flows', flowsDir, { recursive: true });
const tenantFile = join(flowsDir, 'tenants', 'acme', 'tenant.json');
const acme = JSON.parse(readFileSync(tenantFile, 'utf8'));
writeFileSync(tenantFile, JSON.stringify({ ...acme, settings: { ...acme.settings, inactivity_s: 2 } }));

const admin = { 'x-questline-admin': TEST_ADMIN_KEY };

describeBrowser('the Insights view', () => {
  let server: TestServer;
  let browser: TestBrowser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ env: { FLOWS_DIR: flowsDir, SWEEP_INTERVAL_S: '1' } }), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    rmSync(flowsDir, { recursive: true, force: true });
  });

  async function play(messages: readonly string[]): Promise<void> {
    const start = await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } });
    for (const text of messages) expect((await api(server.url, `/sessions/${start.body.sessionId}/messages`, { body: { text }, headers: { authorization: `Bearer ${start.body.token}` } })).status).toBe(200);
  }

  it('shows where visitors drop off, readable without knowing traces, and erases a visitor found by email', async () => {
    for (let i = 0; i < 5; i++) await play(ACME_SALES_SCRIPT);
    for (let i = 0; i < 2; i++) await play([ACME_SALES_SCRIPT[0], 'huge', 'lots', 'zillions', 'Talk to a human']);
    for (let i = 0; i < 4; i++) await play([ACME_SALES_SCRIPT[0]]);
    // the four idle ones are ended by the inactivity sweep: wait for it (no time asserted)
    await expect.poll(async () => (await api(server.url, '/admin/tenants/acme/flows/flow.sales/funnel', { headers: admin })).body.abandoned, { timeout: 30_000, interval: 250 }).toBe(4);

    const page = await browser.newPage({ width: 1500, height: 2200 });
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Admin key').fill(TEST_ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('link', { name: 'Insights' }).click();
    await page.getByRole('heading', { name: 'Insights: where visitors drop off' }).waitFor();
    await expect.poll(() => page.locator('#ins-cards .card').count()).toBe(5);

    // totals in words
    const cards = await page.locator('#ins-cards .card').allInnerTexts();
    expect(cards[0]).toMatch(/^11\s+conversations started/);
    expect(cards[1]).toMatch(/45%\s+completed\s+5 of 11/);
    expect(cards[2]).toMatch(/^4\s+left before the end/);
    expect(cards[3]).toMatch(/^2\s+handed to a person/);
    // the worst drop-off, named by its question's words
    const worst = await page.locator('#ins-worst').innerText();
    expect(worst).toMatch(/^Biggest drop-off: “.+” — 4 of the 11 visitors who reached it left there \(36%\)\.$/);
    // on the map: the area question's badge and the callout; untouched nodes dimmed; edges with counts
    await expect.poll(() => page.locator('#ins-map .overlay .badge[data-id="q.court_size"] text').textContent()).toBe('11 reached · 4 left');
    expect(await page.locator('#ins-map .overlay .badge[data-id="q.court_size"]').getAttribute('class')).toContain('badge-bad');
    expect(await page.locator('#ins-map .overlay .callout text').textContent()).toBe('Biggest drop-off: 4 of 11 left here');
    expect(await page.locator('#ins-map g.node.worst').getAttribute('data-id')).toBe('q.court_size');
    expect(await page.locator('#ins-map .overlay .edge-count').count()).toBeGreaterThan(5);
    // the bars: one per question reached, the worst marked
    expect(await page.locator('#ins-chart li.worst .step-words').innerText()).toBe('11 reached · 4 left here · 2 to a person');
    // re-ask reasons in the flow's words
    expect(await page.locator('#ins-reasons tr').first().innerText()).toMatch(/2 of 11\s+“That doesn't look like a whole number\.” × 6/);
    // completion over time: today's columns and rate
    expect(await page.locator('#ins-days svg .rate').allTextContents()).toEqual(['45%']);
    expect(await axeViolations(page)).toEqual([]);
    console.log(`screenshot: ${await screenshot(page, 'insights-view')}`);

    // a visitor's own data: found by email, erased, then not found
    await page.getByLabel('Email or phone').fill('ann@northside.edu');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => page.locator('#visitor-status').innerText()).toBe('5 conversations found.');
    await page.getByRole('button', { name: 'Erase all' }).click();
    await expect.poll(() => page.locator('#visitor-status').innerText()).toBe('Erased 5 conversations. The funnel keeps them only as numbers.');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => page.locator('#visitor-status').innerText()).toBe('No conversation of this visitor.');
    expect(problems).toEqual([]);
  }, 120_000);
});

describeBrowser('operator alerts', () => {
  let server: TestServer;
  let browser: TestBrowser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ store: 'memory' }), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('once opted in, notify with a sound when a session becomes urgent and when a visitor waits for an operator\'s reply', async () => {
    const page = await browser.newPage({ width: 1280, height: 900 });
    page.setDefaultTimeout(10_000);
    // the browser's Notification and AudioContext, recorded (the console's own code runs as it is)
    await page.addInitScript(() => {
      const w = window as any;
      w.__notes = [];
      w.__tones = 0;
      w.Notification = class {
        static permission = 'default';
        static async requestPermission() { w.Notification.permission = 'granted'; return 'granted'; }
        onclick: unknown = null;
        constructor(title: string, opts: { body?: string }) { w.__notes.push({ title, body: opts?.body ?? '' }); }
      };
      w.AudioContext = class {
        currentTime = 0;
        destination = {};
        createOscillator() { w.__tones++; return { frequency: {}, connect: (x: unknown) => x, start() {}, stop() {} }; }
        createGain() { return { gain: {}, connect: (x: unknown) => x }; }
        async close() {}
      };
    });
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Admin key').fill(TEST_ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Alert me (sound and notification)').check();
    await expect.poll(() => page.locator('#alerts-status').innerText()).toMatch(/^Alerts on/);

    // a red flag on the clinic's intake
    const start = await api(server.url, '/tenants/northside-clinic/sessions', { body: { flow: 'flow.patient_intake' }, headers: { 'x-questline-key': NORTHSIDE_KEY } });
    await api(server.url, `/sessions/${start.body.sessionId}/messages`, { body: { text: 'I am having severe chest pain right now and cannot breathe' }, headers: { authorization: `Bearer ${start.body.token}` } });
    const notes = () => page.evaluate(() => (window as any).__notes as Array<{ title: string; body: string }>);
    await expect.poll(notes, { timeout: 30_000, interval: 250 }).toEqual([{ title: 'Urgent conversation', body: expect.stringMatching(/^northside-clinic: .*chest pain/) }]);
    expect(await page.evaluate(() => (window as any).__tones)).toBe(2);

    // an operator writes into an Acme session; the visitor answers, and nobody replies
    const acmeStart = await api(server.url, '/tenants/acme/sessions', { body: { flow: 'flow.sales' }, headers: { 'x-questline-key': ACME_KEY } });
    await api(server.url, `/admin/sessions/${acmeStart.body.sessionId}/messages`, { body: { text: 'Hello, I am Sam from Acme.' }, headers: admin });
    await api(server.url, `/sessions/${acmeStart.body.sessionId}/messages`, { body: { text: 'Hi Sam, are you there?' }, headers: { authorization: `Bearer ${acmeStart.body.token}` } });
    await expect.poll(async () => (await notes()).map((n) => n.title), { timeout: 30_000, interval: 250 }).toEqual(['Urgent conversation', 'A visitor is waiting for your reply']);
    expect(await page.locator('#alerts-status').innerText()).toMatch(/^A visitor is waiting for your reply: acme: 1 unanswered message since/);
    await screenshot(page, 'operator-alerts');
  }, 90_000);
});
