import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, launchBrowser, type TestBrowser } from '../support/browser.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// page callbacks run in the page; the project compiles without the DOM lib, so they are untyped here
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;

describeBrowser('the demo page', () => {
  let server: TestServer;
  let browser: TestBrowser;
  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('holds a conversation, renders what people type as text, and resumes after a reload', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000); // generous: CI machines are slow and shared
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(server.url);
    await page.waitForSelector('.msg.bot');
    const settle = async () => {
      await page.waitForFunction(() => !document.querySelector('.msg.pending'));
      await page.waitForFunction(() => document.querySelector('#log li:last-child')?.classList.contains('bot'));
    };
    const say = async (text: string) => {
      await page.fill('#text', text);
      await page.press('#text', 'Enter');
      await settle();
    };
    await say('Hi, I want LED lights for a basketball court');
    await say('<img src=x onerror="window.pwned=1">');
    await say('about 420 m2');
    await page.click('.reply >> text=No lights yet');
    await settle();

    expect(await page.locator('#log img').count()).toBe(0);
    expect(await page.locator('.msg.user .bubble').nth(1).textContent()).toBe('<img src=x onerror="window.pwned=1">');
    expect(await page.evaluate(() => window.pwned)).toBeUndefined();
    expect(await page.locator('#node').textContent()).toBe('q.pole_count');
    // the answers panel follows the session state, which can arrive just after the last message
    await page.waitForFunction(() => document.querySelector('#answers')?.textContent?.includes('court_size'));
    expect(await page.locator('#answers dt').count()).toBeGreaterThanOrEqual(4);

    const ids = async (): Promise<number[]> => page.locator('#log li[data-id]').evaluateAll((els: any[]) => els.map((e) => Number(e.dataset.id)));
    const before = await ids();
    expect(before).toEqual(before.map((_, i) => i + 1));
    await page.reload();
    await page.waitForFunction((n) => document.querySelectorAll('#log li[data-id]').length >= n, before.length);
    expect(await ids()).toEqual(before);
    expect(await page.locator('#node').textContent()).toBe('q.pole_count');
    expect(problems).toEqual([]);
  });
});
