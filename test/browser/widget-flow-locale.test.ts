import { expect, it } from 'vitest';
import { ALLOW_LOOPBACK_FROM_ROUTED_PAGES, describeBrowser, screenshot, serveHtml, useServerAndBrowser } from '../support/browser.ts';
import { ACME, ChatDriver, embedPage, HOST_ORIGIN } from './widget-driver.ts';

// The demo flow in German (issue 18): a page embeds the widget with
// data-locale="de", and the conversation runs in the flow's German texts.

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

describeBrowser('the widget in a flow locale', () => {
  const suite = useServerAndBrowser({ browserArgs: [ALLOW_LOOPBACK_FROM_ROUTED_PAGES], closePagesAfterEach: true });

  it('starts the sales intake in German with data-locale="de" and keeps German through the turns', async () => {
    const page = await suite.browser.newPage();
    page.setDefaultTimeout(15_000);
    await serveHtml(page, `${HOST_ORIGIN}/de.html`, embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow, locale: 'de', mode: 'inline', target: '#slot' }, '', '<div id="slot"></div>'));
    await page.goto(`${HOST_ORIGIN}/de.html`);
    const chat = new ChatDriver(page);
    await page.waitForSelector('questline-chat .msg.bot');
    await expect.poll(async () => (await chat.lastBot())?.text).toMatch(/^Suchen Sie neue LED-Beleuchtung/);
    // one welcome, the tenant's own
    expect((await chat.messages()).filter((m) => /Willkommen/.test(m.text)).map((m) => m.text)).toEqual(['Hallo! Willkommen bei Acme Lighting.']);
    await chat.say('Wir brauchen ein Angebot für neue Beleuchtung');
    await expect.poll(async () => (await chat.lastBot())?.text).toMatch(/^Wie groß ist die Fläche, die beleuchtet werden soll, in Quadratmetern\?/);
    await chat.say('420');
    await expect.poll(async () => (await chat.lastBot())?.text).toBe('Für welche Sportart wird die Fläche hauptsächlich genutzt?');
    // the widget's own texts are German too: bot and widget speak one language
    const placeholder = await page.evaluate(() => (document as any).querySelector('questline-chat').shadowRoot.querySelector('textarea').placeholder);
    expect(placeholder).toBe('Ihre Antwort…');
    await screenshot(page, 'widget-flow-de');
  });
});
