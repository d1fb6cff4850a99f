import { expect, it } from 'vitest';
import { ALLOW_LOOPBACK_FROM_ROUTED_PAGES, describeBrowser, useServerAndBrowser } from '../support/browser.ts';
import { ACME, embedPage, openHostPage } from './widget-driver.ts';

// The widget's visitor id (docs/insights.md#variants): made once per browser,
// kept in the storage the widget uses, sent with every new session's
// session:start — the same id on the next visit — so a flow's variant stays
// the same for the visitor.

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const localStorage: any;

describeBrowser('the widget\'s visitor id', () => {
  const suite = useServerAndBrowser({ browserArgs: [ALLOW_LOOPBACK_FROM_ROUTED_PAGES], closePagesAfterEach: true });

  it('is sent with session:start and stays the same on the next visit', async () => {
    const starts: string[] = [];
    const watch = (page: import('playwright-core').Page) => page.on('websocket', (ws) => ws.on('framesent', (f) => {
      const text = typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8');
      if (text.includes('"session:start"') && text.includes('"flow"')) starts.push(text);
    }));
    const html = embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow, open: 'true' });
    const { page, chat } = await openHostPage(suite.browser, '/visitor.html', html, { watch });
    await page.waitForSelector('questline-chat .msg.bot');
    const id = await page.evaluate(() => localStorage.getItem('questline:visitor'));
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(starts).toHaveLength(1);
    expect(JSON.parse(starts[0]!.slice(starts[0]!.indexOf('[')))[1]).toMatchObject({ flow: ACME.flow, visitor: id });

    // the next visit starts a new conversation (the session forgotten), as the same visitor
    await page.evaluate(() => {
      for (const k of Object.keys(localStorage)) if (k !== 'questline:visitor') localStorage.removeItem(k);
    });
    await page.reload();
    await chat.launcher().waitFor();
    await page.waitForSelector('questline-chat .msg.bot');
    expect(starts).toHaveLength(2);
    expect(JSON.parse(starts[1]!.slice(starts[1]!.indexOf('[')))[1]).toMatchObject({ visitor: id });
  }, 60_000);
});
