import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ALLOW_LOOPBACK_FROM_ROUTED_PAGES, axeViolations, describeBrowser, screenshot, useServerAndBrowser } from '../support/browser.ts';
import { TEST_ADMIN_KEY } from '../support/server.ts';
import { CLINIC, embedPage, openHostPage, type ChatDriver } from './widget-driver.ts';

// Issue 31, played in two tabs: a patient reports a red flag in the widget;
// the emergency advice shows as an alert; the chat escalates and stays open;
// the patient writes twice more; the operator console (the other tab) lists
// the session first — the patient's name, their last line, how long they have
// waited — and shows the lines arriving live; the operator answers and the
// patient sees it. Screenshots go to test-artifacts/.

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

describeBrowser('an escalation that stays open, widget and console together', () => {
  const suite = useServerAndBrowser({ browserArgs: [ALLOW_LOOPBACK_FROM_ROUTED_PAGES], closePagesAfterEach: true });
  const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 10_000, interval: 50 });

  /** The operator console, signed in, in a tab of its own. */
  async function console(): Promise<{ page: Page; problems: string[] }> {
    const page = await suite.browser.newPage({ width: 1440, height: 1000 });
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(`${suite.server.url}/admin`);
    await page.getByLabel('Admin key').fill(TEST_ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('#connection.live').waitFor();
    return { page, problems };
  }

  /** Lets the last line's entrance animation (0.2 s) finish, so a screenshot shows it as the visitor does (never for an assertion). */
  const settle = (p: Page) => p.waitForTimeout(400);

  /** Types a line into the widget and waits until the server has taken it (an id, not pending, not failed). */
  async function send(chat: ChatDriver, text: string): Promise<void> {
    await chat.input().fill(text);
    await chat.input().press('Enter');
    await chat.page.waitForFunction((t: string) => {
      const root = document.querySelector('questline-chat')?.shadowRoot;
      const mine = Array.from(root?.querySelectorAll('.msg.user') ?? []).filter((el: any) => el.querySelector('.bubble')?.textContent === t) as any[];
      return mine.length > 0 && mine.every((el) => el.dataset.id && !el.classList.contains('pending') && !el.classList.contains('failed'));
    }, text);
  }

  it('the visitor keeps writing after a red flag; the console shows them first and live; the operator answers', async () => {
    const operator = await console();
    const { page, chat, problems } = await openHostPage(suite.browser, '/clinic.html',
      embedPage(suite.server.url, { key: CLINIC.key, flow: CLINIC.flow, title: 'Riverside Family Health', mode: 'inline', target: '#chat' }, '', '<div id="chat"></div>'),
      { viewport: { width: 900, height: 1000 } });
    await page.waitForSelector('questline-chat .msg.bot >> nth=1');
    await chat.say('Jane Marie Doe');
    await chat.say('March 27, 1984');
    await chat.say('he has crushing chest pain and cannot breathe');

    // the emergency advice is an alert: role, icon and words, not colour alone
    const alert = page.locator('questline-chat .msg.alert');
    await alert.waitFor();
    expect(await alert.count()).toBe(1);
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await alert.locator('.alert-label').innerText()).toBe('Urgent — please read');
    expect(await alert.locator('.alert-label svg').count()).toBe(1);
    expect(await alert.locator('.bubble').innerText()).toContain('Please call 911 now');
    // not colour alone: the frame and ground differ from an ordinary bot line as well as the words
    const look = (sel: string) => page.locator(sel).first().evaluate((el: any) => {
      const s = (globalThis as any).getComputedStyle(el);
      return { bg: s.backgroundColor, border: s.borderInlineStartWidth };
    });
    const ordinary = await look('questline-chat .msg.bot:not(.alert) .bubble');
    const urgent = await look('questline-chat .msg.alert .bubble');
    expect(urgent.bg).not.toBe(ordinary.bg);
    expect(urgent.border).toBe('6px');
    // the chat stays open
    expect(await chat.input().isDisabled()).toBe(false);
    await screenshot(page, 'escalation-1-widget-alert');

    // the console lists it first: the patient's name, their last line, how long they have waited, urgent
    const ops = operator.page;
    const firstRow = ops.locator('#sessions-body tr').first();
    await poll(() => firstRow.locator('.who-name').innerText()).toBe('Jane Marie Doe');
    const sessionId = (await firstRow.getAttribute('data-row'))!;
    expect(await firstRow.locator('.urgent').innerText()).toMatch(/^Urgent: /);
    expect(await firstRow.locator('.last').innerText()).toBe('Visitor: he has crushing chest pain and cannot breathe');
    await poll(() => firstRow.locator('td.wait').innerText()).toMatch(/^waiting \d+ s$/);
    // the wait counts on by itself (the list refresh is off: the time is live)
    await ops.getByLabel('Auto-refresh').uncheck();
    const waited = await firstRow.locator('td.wait').innerText();
    await poll(() => firstRow.locator('td.wait').innerText()).not.toBe(waited);

    // search (server-side): by name finds it, anything else not
    const search = ops.getByLabel('Search');
    await search.fill('jane doe');
    await poll(() => ops.locator('#list-status').innerText()).toMatch(/^1 session matches “jane doe”/);
    await poll(() => ops.locator('#sessions-body tr').first().getAttribute('data-row')).toBe(sessionId);
    await search.fill('nobody said this');
    await poll(() => ops.locator('#sessions-body').innerText()).toBe('No session matches this search.');
    await search.fill('');
    await poll(() => ops.locator('#sessions-body tr').first().getAttribute('data-row')).toBe(sessionId);

    // open it: the hand-back picker starts at the question the bot was on
    await firstRow.locator('button.open').click();
    await ops.getByRole('heading', { name: `Session ${sessionId}` }).waitFor();
    await poll(() => ops.locator('#hand-back-node').inputValue()).toBe('q.sex');

    // the visitor writes twice more: both taken, and they arrive in the console live (no list refresh)
    await send(chat, "I'm already in your waiting room");
    await send(chat, 'please hurry, he is getting worse');
    const transcript = ops.locator('#transcript');
    await poll(() => transcript.locator('li.msg-user').allInnerTexts()).toEqual(expect.arrayContaining([
      expect.stringContaining("I'm already in your waiting room"), expect.stringContaining('please hurry, he is getting worse'),
    ]));
    await poll(() => ops.locator(`#sessions-body tr[data-row="${sessionId}"] .last`).innerText()).toBe('Visitor: please hurry, he is getting worse');
    await poll(() => ops.locator('#session-alert').innerText()).toMatch(/unanswered messages?\)/);
    await screenshot(ops, 'escalation-2-console-live');

    // the operator answers; the visitor sees it
    await ops.getByLabel('Reply to the visitor').fill('This is Sam, a nurse. Please tell the front desk now; I am coming out to you.');
    await ops.getByRole('button', { name: 'Send reply' }).click();
    const reply = page.locator('questline-chat .msg.operator .bubble');
    await poll(() => reply.allInnerTexts()).toEqual(['This is Sam, a nurse. Please tell the front desk now; I am coming out to you.']);
    await settle(page);
    await screenshot(page, 'escalation-3-widget-operator-reply');
    await poll(() => ops.locator('#session-alert').innerText()).toMatch(/^Urgent: .*You hold this conversation/);
    await settle(ops);
    await screenshot(ops, 'escalation-4-console-answered');
    expect(await axeViolations(page)).toEqual([]);
    expect(await axeViolations(ops)).toEqual([]);

    // once seen to, the operator closes it: the visitor is told, the row says closed
    await ops.getByRole('button', { name: 'Close conversation' }).click();
    await poll(() => ops.locator('#action-status').innerText()).toBe('Close: done.');
    await poll(() => chat.messages().then((m) => m.at(-1)?.text ?? '')).toMatch(/^Our team has closed this conversation/);
    await ops.getByRole('button', { name: 'Refresh' }).click();
    await poll(() => ops.locator(`#sessions-body tr[data-row="${sessionId}"] .closed`).count()).toBe(1);
    await poll(() => ops.getByRole('button', { name: 'Close conversation' }).isDisabled()).toBe(true);
    await poll(() => ops.getByRole('button', { name: 'Send reply' }).isDisabled()).toBe(true);
    await settle(page);
    await screenshot(page, 'escalation-5-widget-closed');
    expect(problems).toEqual([]);
    expect(operator.problems).toEqual([]);
  }, 90_000);
});
