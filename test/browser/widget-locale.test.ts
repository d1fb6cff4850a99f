import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { STUB } from '../../client/widget/stub.ts';
import { ALLOW_LOOPBACK_FROM_ROUTED_PAGES, axeViolations, describeBrowser, screenshot, useServerAndBrowser } from '../support/browser.ts';
import { ACME, embedPage, openHostPage } from './widget-driver.ts';

// The widget's own texts in the visitor's language and its right-to-left
// layout: the locale comes from `data-locale`, else the page's `<html lang>`,
// else the browser's; the translations are a bundle of their own
// (/widget-texts.js) that an English page never loads; once the session's
// locale differs from the one it started in (the visitor switched), the
// texts follow it. Screenshots:
// test-artifacts/widget-locale-*.png.

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const localStorage: any;
declare const getComputedStyle: any;

describeBrowser('the chat widget in the visitor language', () => {
  const suite = useServerAndBrowser({ browserArgs: [ALLOW_LOOPBACK_FROM_ROUTED_PAGES], closePagesAfterEach: true });

  /** A fresh tab on a host page with no stored session; records requests and what the socket sent. */
  async function hostPage(path: string, html: string) {
    const requests: string[] = [];
    const sent: string[] = [];
    const opened = await openHostPage(suite.browser, path, html, { watch: (page) => {
      page.on('request', (r) => requests.push(new URL(r.url()).pathname));
      page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(String(f.payload))));
    } });
    return { ...opened, requests, sent };
  }

  /** The widget's root: its language and direction, and the words of its controls. */
  const face = (page: Page) => page.evaluate(() => {
    const root = document.querySelector('questline-chat').shadowRoot;
    const $ = (s: string) => root.querySelector(s);
    return {
      lang: $('.root').lang,
      dir: $('.root').dir,
      direction: getComputedStyle($('.log')).direction,
      title: $('#ql-title').textContent,
      back: $('.back span').textContent,
      restart: $('.restart span').textContent,
      send: $('.send').getAttribute('aria-label'),
      close: $('.close')?.getAttribute('aria-label') ?? null,
      label: $('label').textContent,
      placeholder: $('textarea').placeholder,
      log: $('.log').getAttribute('aria-label'),
      progress: $('.progress .label').textContent,
    };
  });

  /** The `session:start` payloads the socket sent. */
  const starts = (sent: string[]) => sent.filter((f) => f.includes('"session:start"')).map((f) => JSON.parse(f.slice(f.indexOf('[')))[1]);

  it('speaks German with data-locale="de" on an English page, and tells the server the locale', async () => {
    const { page, chat, problems, requests, sent } = await hostPage('/de.html', embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow, locale: 'de' }));
    await chat.launcher().waitFor();
    await page.waitForFunction(() => document.querySelector('questline-chat').shadowRoot.querySelector('.send').getAttribute('aria-label') === 'Senden');
    expect(requests).toContain('/widget-texts.js');
    expect(await chat.launcher().getAttribute('aria-label')).toBe('Chat öffnen');
    await chat.launcher().click();
    await chat.panel().waitFor();
    await page.waitForSelector('questline-chat .msg.bot >> nth=1');
    await chat.say('Hi, I want LED lights for a basketball court');
    expect(await face(page)).toEqual({
      lang: 'de', dir: 'ltr', direction: 'ltr',
      title: 'Chat mit uns', back: 'Zurück', restart: 'Neustart', send: 'Senden', close: 'Chat schließen',
      label: 'Ihre Antwort', placeholder: 'Ihre Antwort…', log: 'Unterhaltung', progress: expect.stringMatching(/^\d+ von \d+ beantwortet$/),
    });
    expect(starts(sent)).toEqual([expect.objectContaining({ flow: ACME.flow, locale: 'de' })]);
    await screenshot(page, 'widget-locale-de');
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);

  it('lays out right to left on a page with lang="he": Hebrew controls, bot lines on the right, the visitor on the left, mirrored arrows', async () => {
    const html = embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow }).replace('<html lang="en">', '<html lang="he" dir="rtl">');
    const { page, chat, problems, sent } = await hostPage('/he.html', html);
    await chat.launcher().click();
    await chat.panel().waitFor();
    await page.waitForSelector('questline-chat .msg.bot >> nth=1');
    await page.waitForFunction(() => document.querySelector('questline-chat').shadowRoot.querySelector('.send').getAttribute('aria-label') === 'שליחה');
    await chat.say('Hi, I want LED lights for a basketball court');
    expect(await face(page)).toMatchObject({ lang: 'he', dir: 'rtl', direction: 'rtl', title: 'דברו איתנו', back: 'חזרה', send: 'שליחה', placeholder: 'הקלידו את תשובתכם…' });
    expect(starts(sent)).toEqual([expect.objectContaining({ locale: 'he' })]);
    const boxes = await page.evaluate(() => {
      const root = document.querySelector('questline-chat').shadowRoot;
      const box = (el: any) => {
        const r = el.getBoundingClientRect();
        return { left: Math.round(r.left), right: Math.round(r.right) };
      };
      return {
        log: box(root.querySelector('.log')),
        bot: box(root.querySelector('.msg.bot .bubble')),
        user: box(root.querySelector('.msg.user .bubble')),
        title: box(root.querySelector('#ql-title')),
        close: box(root.querySelector('.close')),
        input: box(root.querySelector('textarea')),
        send: box(root.querySelector('.send')),
        arrow: getComputedStyle(root.querySelector('.send svg')).transform,
      };
    });
    // the bot's bubble hugs the right edge, the visitor's the left (14px padding inside the log)
    expect(boxes.log.right - boxes.bot.right).toBeLessThan(30);
    expect(boxes.user.left - boxes.log.left).toBeLessThan(30);
    expect(boxes.bot.right).toBeGreaterThan(boxes.user.right);
    // header and composer mirror: the title starts on the right, close and send sit on the left
    expect(boxes.close.right).toBeLessThan(boxes.title.left);
    expect(boxes.send.right).toBeLessThan(boxes.input.left);
    expect(boxes.arrow).toBe('matrix(-1, 0, 0, 1, 0, 0)');
    await screenshot(page, 'widget-locale-rtl');
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);

  it("keeps the page's language while the session is in the locale it started in, follows a later one, and an English page loads no translations", async () => {
    // a German page; the session's context names French (the state's locale comes from there until sessions store their own)
    const html = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Host</title></head><body><div id="slot"></div>
      <script>${STUB} window.states = []; Questline.on('state', function (s) { window.states.push(s); });
      Questline.init({ key: '${ACME.key}', flow: '${ACME.flow}', mode: 'inline', target: '#slot', context: { locale: 'fr' } });</script>
      <script async src="${suite.server.url}/widget.js"></script></body></html>`;
    const { page, chat, problems, sent } = await hostPage('/follow.html', html);
    await chat.panel().waitFor();
    await page.waitForSelector('questline-chat .msg.bot >> nth=1');
    expect(starts(sent)).toEqual([expect.objectContaining({ locale: 'de', context: { locale: 'fr' } })]);
    const started = (await page.evaluate(() => window.states.at(-1).locale)) as string;
    expect(started).toEqual(expect.any(String));
    await page.waitForFunction(() => document.querySelector('questline-chat').shadowRoot.querySelector('.send').getAttribute('aria-label') === 'Senden');
    // the locale the session started in is not a switch: the page's German stays (whatever the session's locale is)
    await expect.poll(() => chat.stored().then((s: any) => s?.locale)).toBe(started);
    expect(await face(page)).toMatchObject({ lang: 'de', title: 'Chat mit uns', send: 'Senden' });

    // a session now in a locale other than the one it started in (as after the visitor switched language):
    // the stored start locale is set to another one, and the page reloaded resumes the session
    await page.evaluate(() => {
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k.startsWith('questline:') && k !== 'questline:visitor') localStorage.setItem(k, JSON.stringify({ ...JSON.parse(localStorage.getItem(k)), locale: 'zz' }));
      }
    });
    await page.reload();
    await page.waitForSelector('questline-chat .msg.bot >> nth=1');
    const send: Record<string, string> = { de: 'Senden', fr: 'Envoyer', en: 'Send' };
    const expected = send[started.split('-')[0]!]!;
    await page.waitForFunction((label: string) => document.querySelector('questline-chat').shadowRoot.querySelector('.send').getAttribute('aria-label') === label, expected);
    expect(await face(page)).toMatchObject({ lang: started, send: expected });
    if (started === 'fr') expect(await face(page)).toMatchObject({ title: 'Discutons', back: 'Retour', restart: 'Recommencer', label: 'Votre réponse' });
    await screenshot(page, 'widget-locale-follow');
    expect(problems).toEqual([]);
    await page.close();

    const english = await hostPage('/en.html', embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow, open: 'true' }));
    await english.page.waitForSelector('questline-chat .msg.bot >> nth=1');
    expect(await face(english.page)).toMatchObject({ lang: 'en', dir: 'ltr', title: 'Chat with us', send: 'Send' });
    expect(starts(english.sent)).toEqual([expect.objectContaining({ locale: 'en' })]);
    expect(english.requests).not.toContain('/widget-texts.js');
  }, 60_000);
});
