import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { ChatDriver } from '../browser/widget-driver.ts';
import { axeViolations, describeBrowser, screenshot, useServerAndBrowser } from '../support/browser.ts';

// The demo site at `/`, under the app's strict CSP: the widget (loaded
// through the queue stub) runs a conversation, the answers panel follows it,
// the embed snippet matches the choice, and a reload resumes.

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;

describeBrowser('the demo page', () => {
  const suite = useServerAndBrowser();

  it('runs a conversation in the bubble, shows the answers and the snippet, resumes after a reload and switches to inline', async () => {
    const page = await suite.browser.newPage();
    page.setDefaultTimeout(8_000); // generous: CI machines are slow and shared
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text())); // CSP violations land here
    const chat = new ChatDriver(page);
    await page.goto(suite.server.url);
    expect((await page.request.get(suite.server.url)).headers()['content-security-policy']).toContain("script-src 'self'");

    // the flow list comes from the server
    await page.waitForFunction(() => document.querySelector('#flow option')?.value === 'flow.sales');
    expect(await page.locator('#snippet').textContent()).toContain(`<script async src="${suite.server.url}/widget.js"`);
    expect(await page.locator('#snippet').textContent()).toContain('data-key="pk_acme_demo" data-flow="flow.sales"');
    expect(await page.locator('#snippet-queue').textContent()).toContain('Questline.init({"key":"pk_acme_demo","flow":"flow.sales"})');

    await page.click('#open');
    await page.waitForSelector('questline-chat .msg.bot');
    expect(await chat.focused()).toBe('textarea');
    await chat.say('Hi, I want LED lights for a basketball court');
    await chat.say('about 420 m2');
    await chat.pick('No lights yet');
    await page.waitForFunction(() => document.querySelector('#answers')?.textContent?.includes('current_lighting'));
    const answers = await page.locator('#answers').textContent();
    expect(answers).toContain('court_size');
    expect(answers).toContain('420');
    expect(await page.locator('#status').textContent()).toBe('active');
    await screenshot(page, 'demo-1-bubble');
    expect(await axeViolations(page)).toEqual([]);

    // a reload resumes the same session, open, with every line once
    const before = await chat.messages();
    const sessionId = (await page.locator('#session').textContent()) ?? '';
    await page.reload();
    await page.waitForFunction((n: number) => document.querySelector('questline-chat')?.shadowRoot?.querySelectorAll('.msg[data-id]').length >= n, before.length);
    expect((await chat.messages()).map((m) => m.id)).toEqual(before.map((m) => m.id));
    expect(await chat.panel().isVisible()).toBe(true);
    await page.waitForFunction((id: string) => document.querySelector('#session')?.textContent === id, sessionId);
    await chat.say('4');
    expect((await chat.lastBot())?.text).toMatch(/high/i);

    // inline mode: the same session, inside the page
    await page.check('input[value="inline"]');
    await page.locator('#chat-slot questline-chat .panel').waitFor();
    expect(await page.locator('#chat-slot questline-chat .launcher').count()).toBe(0);
    await page.waitForFunction((n: number) => document.querySelector('questline-chat')?.shadowRoot?.querySelectorAll('.msg[data-id]').length >= n, before.length + 2);
    expect(await page.locator('#snippet').textContent()).toContain('data-mode="inline" data-target="#chat"');
    await page.waitForFunction(() => document.querySelector('#answers')?.textContent?.includes('pole_count'));
    await screenshot(page, 'demo-2-inline');

    // another business: its flows, and a conversation of its own
    await page.selectOption('#tenant', 'northside-clinic');
    await page.waitForFunction(() => document.querySelector('#flow option')?.value === 'flow.patient_intake');
    await page.waitForFunction(() => /welcome to Northside/i.test(document.querySelector('questline-chat')?.shadowRoot?.querySelector('.msg.bot')?.textContent ?? ''));
    expect(await page.locator('#answers dt').count()).toBe(0);

    // New conversation: a different session
    await page.selectOption('#tenant', 'acme');
    await page.waitForFunction((id: string) => document.querySelector('#session')?.textContent === id, sessionId);
    await page.click('#new');
    await page.waitForFunction((id: string) => !['—', id].includes(document.querySelector('#session')?.textContent), sessionId);
    await page.waitForFunction(() => document.querySelector('questline-chat')?.shadowRoot?.querySelectorAll('.msg.user').length === 0);
    expect(await page.evaluate(() => typeof window.Questline.init)).toBe('function');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('switches the language with the Language select: the snippet names the locale and a new conversation speaks it', async () => {
    const page = await suite.browser.newPage();
    page.setDefaultTimeout(8_000);
    const chat = new ChatDriver(page);
    await page.goto(suite.server.url);
    await page.evaluate(() => window.localStorage.clear());
    await page.reload();
    await page.waitForFunction(() => document.querySelector('#flow option')?.value === 'flow.sales');
    expect(await page.locator('#snippet').textContent()).not.toContain('data-locale');
    await page.selectOption('#locale', 'de');
    expect(await page.locator('#snippet').textContent()).toContain('data-key="pk_acme_demo" data-flow="flow.sales" data-locale="de"');
    expect(await page.locator('#snippet-queue').textContent()).toContain('Questline.init({"key":"pk_acme_demo","flow":"flow.sales","locale":"de"})');
    await page.click('#open');
    await page.waitForFunction(() => /^Suchen Sie neue LED-Beleuchtung/.test(document.querySelector('questline-chat')?.shadowRoot?.querySelector('.msg.bot:last-of-type .bubble')?.textContent ?? ''));
    // greeted once, by the tenant: its welcome, then its first question
    expect((await chat.messages()).map((m) => m.text)).toEqual(['Hallo! Willkommen bei Acme Lighting.', expect.stringMatching(/^Suchen Sie neue LED-Beleuchtung/)]);
    await chat.say('Wir brauchen ein Angebot für neue Beleuchtung');
    expect((await chat.lastBot())?.text).toMatch(/^Wie groß ist die Fläche/);
    await screenshot(page, 'demo-3-deutsch');
    await page.close();
  }, 60_000);

  it('serves /widget.js compressed, with an ETag that answers 304', async () => {
    const plain = await fetch(`${suite.server.url}/widget.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(plain.headers.get('content-encoding')).toBeNull();
    const js = Buffer.from(await plain.arrayBuffer());
    const etag = plain.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    for (const encoding of ['gzip', 'br']) {
      const res = await rawGet(`${suite.server.url}/widget.js`, { 'accept-encoding': encoding });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.body.length).toBeLessThan(js.length / 2);
      expect((encoding === 'gzip' ? gunzipSync(res.body) : brotliDecompressSync(res.body)).equals(js)).toBe(true);
    }
    const again = await fetch(`${suite.server.url}/widget.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});

/** A GET whose body is left as the server sent it (fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}
