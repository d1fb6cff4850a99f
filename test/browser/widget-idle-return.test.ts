import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemCallEnv } from '../../server/conversation/actions.ts';
import { ALLOW_LOOPBACK_FROM_ROUTED_PAGES, describeBrowser, launchBrowser, screenshot, type TestBrowser } from '../support/browser.ts';
import { REPO_FLOWS, startTestServer, type TestServer } from '../support/server.ts';
import { ACME, embedPage, openHostPage } from './widget-driver.ts';

// Issue 31, idle and return: a visitor whose conversation went idle sees that
// they can write to carry on; back within the tenant's resume_s (a reload
// here: the widget keeps its session token, the server resumes on reconnect)
// the same session goes on where it stood, answers kept; after it, the
// widget's one button starts a new conversation. The server's clock is the
// test's (advanced by hand), its sweep runs every 0.2 s.

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

describeBrowser('the widget when a conversation went idle', () => {
  const flowsDir = mkdtempSync(join(tmpdir(), 'questline-idle-return-'));
  let t = Date.parse('2026-01-15T10:00:00Z');
  const advance = (s: number) => { t += s * 1000; };
  let server: TestServer | undefined;
  let browser: TestBrowser | undefined;
  beforeAll(async () => {
    cpSync(REPO_FLOWS, flowsDir, { recursive: true });
    const tenantFile = join(flowsDir, 'tenants', 'acme', 'tenant.json');
    const acme = JSON.parse(readFileSync(tenantFile, 'utf8'));
    writeFileSync(tenantFile, JSON.stringify({ ...acme, settings: { ...acme.settings, inactivity_s: 60, resume_s: 600 } }));
    server = await startTestServer({ store: 'memory', env: { FLOWS_DIR: flowsDir, SWEEP_INTERVAL_S: '0.2' },
      overrides: { env: { ...systemCallEnv, now: () => new Date(t).toISOString() } } });
    browser = await launchBrowser([ALLOW_LOOPBACK_FROM_ROUTED_PAGES]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    rmSync(flowsDir, { recursive: true, force: true });
  });

  const endCard = (page: import('playwright-core').Page) => page.evaluate(() => {
    const root = document.querySelector('questline-chat').shadowRoot;
    const end = root.querySelector('.end');
    return { hidden: end.hidden, text: end.textContent, button: end.querySelector('.again').hidden ? null : end.querySelector('.again').textContent,
      inputDisabled: root.querySelector('textarea').disabled };
  });

  it('resumes within resume_s after a reload, answers kept; after it, one button starts a new conversation', async () => {
    const html = embedPage(server!.url, { key: ACME.key, flow: ACME.flow, open: 'true' });
    const { page, chat, problems } = await openHostPage(browser!, '/idle.html', html);
    await page.waitForSelector('questline-chat .msg.bot');
    await chat.say('We want to buy new lights for a tennis court');
    expect((await chat.lastBot())!.text).toMatch(/court/i);
    const first = (await chat.stored())!;

    // nobody writes for a minute: the sweep pauses it; the open widget says the visitor can write to carry on
    advance(61);
    await page.waitForFunction(() => /paused because it was idle/.test(document.querySelector('questline-chat').shadowRoot.textContent));
    expect(await endCard(page)).toMatchObject({ hidden: false, text: expect.stringContaining('This conversation is paused.'), button: 'Start a new conversation', inputDisabled: false });
    await screenshot(page, 'widget-idle-paused');

    // back five minutes later (within resume_s): the reload reconnects with the stored token and the same session goes on
    advance(300);
    await page.reload();
    await page.waitForFunction(() => /Welcome back/.test(document.querySelector('questline-chat').shadowRoot.textContent));
    expect((await chat.stored())!.sessionId).toBe(first.sessionId);
    expect(await endCard(page)).toMatchObject({ hidden: true, inputDisabled: false });
    await screenshot(page, 'widget-idle-welcome-back');
    await chat.say('about 600 square meters');
    const view = await fetch(`${server!.url}/api/v1/sessions/${first.sessionId}`, { headers: { authorization: `Bearer ${first.token}` } }).then((r) => r.json() as Promise<{ state: { status: string }; answers: Record<string, unknown> }>);
    expect(view.state.status).toBe('active');
    expect(view.answers).toMatchObject({ intention: 'buy_led', sport: 'tennis', court_size: 600 });

    // idle again, and back after resume_s: closed; the one button starts a new conversation
    advance(61);
    await page.waitForFunction(() => !document.querySelector('questline-chat').shadowRoot.querySelector('.end').hidden);
    advance(601);
    await page.reload();
    await page.waitForSelector('questline-chat .msg.bot');
    await page.waitForFunction(() => !document.querySelector('questline-chat').shadowRoot.querySelector('.end').hidden);
    expect(await endCard(page)).toMatchObject({ text: expect.stringContaining('This conversation was closed.'), button: 'Start a new conversation', inputDisabled: true });
    await screenshot(page, 'widget-idle-after-window');
    await page.locator('questline-chat .end .again').click();
    await page.waitForFunction((old: string) => {
      const k = Object.keys((globalThis as any).localStorage).find((x: string) => x.startsWith('questline:') && x !== 'questline:visitor');
      const stored = k ? JSON.parse((globalThis as any).localStorage.getItem(k)) : null;
      return stored && stored.sessionId !== old;
    }, first.sessionId);
    await page.waitForSelector('questline-chat .msg.bot');
    expect(await endCard(page)).toMatchObject({ hidden: true, inputDisabled: false });
    await screenshot(page, 'widget-idle-started-again');
    expect(problems).toEqual([]);
  }, 90_000);
});
