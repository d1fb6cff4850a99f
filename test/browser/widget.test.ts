import { expect, it } from 'vitest';
import { ALLOW_LOOPBACK_FROM_ROUTED_PAGES, axeViolations, describeBrowser, screenshot, serveHtml, useServerAndBrowser } from '../support/browser.ts';
import { createEmbeddedBackend } from '../../server/delivery/backend.ts';
import { MemoryOutbox } from '../../server/delivery/outbox.ts';
import { MemoryStore } from '../../server/store/memory.ts';
import { startTestServer } from '../support/server.ts';
import { ACME, ChatDriver, embedPage, HOST_ORIGIN, SALES_SCRIPT } from './widget-driver.ts';

// The widget embedded with its script tag on a customer's page: the page is
// served as http://localhost:3000 (an origin the acme tenant allows) and the
// widget comes from the test server on another port, so it runs cross-origin
// and finds its server from its own script URL.

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const localStorage: any;

describeBrowser('the chat widget', () => {
  // a failed test must not leave a widget running that writes to the shared origin's storage
  const suite = useServerAndBrowser({ browserArgs: [ALLOW_LOOPBACK_FROM_ROUTED_PAGES], closePagesAfterEach: true });

  /** A fresh tab on a host page, with no stored session. */
  async function hostPage(path: string, html: string) {
    const page = await suite.browser.newPage();
    page.setDefaultTimeout(15_000);
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    // forget what earlier tests stored for this origin, before any widget runs
    await serveHtml(page, `${HOST_ORIGIN}/blank.html`, '<!doctype html><title>blank</title>');
    await page.goto(`${HOST_ORIGIN}/blank.html`);
    await page.evaluate(() => localStorage.clear());
    await serveHtml(page, `${HOST_ORIGIN}${path}`, html);
    await page.goto(`${HOST_ORIGIN}${path}`);
    return { page, chat: new ChatDriver(page), problems, requests };
  }

  it('completes the sales flow by typing and clicking quick replies, shows text as text and re-asks a wrong answer', async () => {
    const { page, chat, problems, requests } = await hostPage('/shop.html', embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow, title: 'Acme Lighting' }));
    await chat.launcher().waitFor();
    expect(await chat.panel().isVisible()).toBe(false);
    // until the visitor reaches for the chat, only widget.js is loaded: no socket client, no connection
    await page.waitForTimeout(300);
    expect(requests.filter((u) => u.startsWith(suite.server.url)).map((u) => new URL(u).pathname)).toEqual(['/widget.js']);
    await screenshot(page, 'widget-1-closed');

    await chat.launcher().click();
    await chat.panel().waitFor();
    expect(await chat.launcher().getAttribute('aria-expanded')).toBe('true');
    expect(await chat.focused()).toBe('textarea');
    await page.waitForSelector('questline-chat .msg.bot >> nth=1');
    await screenshot(page, 'widget-2-open');

    // a wrong answer with markup in it: shown as text, re-asked
    const [first, ...rest] = SALES_SCRIPT;
    await chat.say((first as { say: string }).say);
    const hostile = '<img src=x onerror="window.__pwned=1">';
    await chat.say(hostile);
    const afterHostile = await chat.messages();
    const mine = afterHostile.filter((m) => m.role === 'user').at(-1)!;
    expect(mine.text).toBe(hostile);
    expect(afterHostile.at(-1)).toMatchObject({ role: 'bot', kind: 'invalid' });
    expect(await page.locator('questline-chat img').count()).toBe(0);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    await screenshot(page, 'widget-3-reask');

    const progress = async () => Number(await page.locator('questline-chat .track').getAttribute('aria-valuenow'));
    const before = await progress();
    const label = page.locator('questline-chat .progress .label');
    for (const step of rest) {
      if ('say' in step && step.say === 'ann@northside.edu') {
        // asking for the (optional) email: the label counts it, so it is not shown as all answered
        const [, answered, total] = /^(\d+) of (\d+) answered$/.exec((await label.textContent()) ?? '') ?? [];
        expect(Number(answered)).toBeLessThan(Number(total));
      }
      if ('pick' in step && step.pick === "Yes, that's right") {
        // the review before submit shows what was collected, in plain words
        await chat.chip(step.pick).waitFor();
        const review = (await chat.lastBot())?.text ?? '';
        expect(review).toMatch(/check what/i);
        expect(review).toContain('ann@northside.edu');
        expect(review).toContain('Ann Lee');
        await screenshot(page, 'widget-4b-review');
      }
      if ('say' in step) await chat.say(step.say);
      else {
        await chat.chip(step.pick).waitFor();
        if (step.pick === 'No lights yet') await screenshot(page, 'widget-4-chips');
        await chat.pick(step.pick);
      }
    }
    expect(await progress()).toBeGreaterThan(before);
    await page.locator('questline-chat .end').waitFor();
    expect(await page.locator('questline-chat .end').textContent()).toContain('All done');
    expect(await chat.input().isDisabled()).toBe(true);
    await screenshot(page, 'widget-5-completed');
    expect(await axeViolations(page)).toEqual([]);

    const ids = (await chat.messages()).map((m) => m.id);
    expect(ids).toEqual(ids.map((_, i) => i + 1)); // every line once, in order
    expect(problems).toEqual([]);
    await page.close();
  });

  it('resumes after a reload mid-way, open, with every line once, and carries on', async () => {
    const { page, chat, problems } = await hostPage('/reload.html', embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow }));
    await chat.launcher().click();
    await page.waitForSelector('questline-chat .msg.bot');
    await chat.say('Hi, I want LED lights for a basketball court');
    await chat.say('about 420 m2');
    const before = await chat.messages();
    const stored = await chat.stored();
    expect(stored?.sessionId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);

    await page.reload();
    await page.waitForFunction((n: number) => document.querySelector('questline-chat')?.shadowRoot?.querySelectorAll('.msg[data-id]').length >= n, before.length);
    await page.waitForTimeout(300); // nothing more may arrive
    expect(await chat.messages()).toEqual(before);
    expect(await chat.panel().isVisible()).toBe(true); // it was open
    expect((await chat.stored())?.sessionId).toBe(stored!.sessionId);
    // replayed history is not announced again: it sits outside the live part of the log
    expect(await page.locator('questline-chat .history .msg').count()).toBe(before.length);
    expect(await page.locator('questline-chat .live .msg').count()).toBe(0);
    await chat.pick('No lights yet');
    expect((await chat.lastBot())?.text).toMatch(/light poles/);
    expect(await page.locator('questline-chat .live .msg').count()).toBeGreaterThanOrEqual(2);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the offline state, keeps what is typed meanwhile, and replays what it missed after reconnecting, without duplicates', async () => {
    const { page, chat, problems } = await hostPage('/offline.html', embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow }));
    await chat.launcher().click();
    await page.waitForSelector('questline-chat .msg.bot');
    await chat.say('Hi, I want LED lights for a basketball court');
    await chat.say('about 420 m2');
    await chat.pick('No lights yet');
    const stored = (await chat.stored())!;

    await page.context().setOffline(true);
    suite.server.io.of('/chat').disconnectSockets(true);
    await page.waitForFunction(() => /offline/i.test(document.querySelector('questline-chat')?.shadowRoot?.querySelector('.conn:not([hidden])')?.textContent ?? ''));
    await screenshot(page, 'widget-6-offline');

    // meanwhile the conversation moves on elsewhere (another tab, the REST API)…
    const res = await fetch(`${suite.server.url}/api/v1/sessions/${stored.sessionId}/messages`, {
      method: 'POST', headers: { authorization: `Bearer ${stored.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ text: '4' }),
    });
    expect(res.status).toBe(200);
    // …and the visitor types an answer while offline: shown as pending
    await chat.input().fill('12');
    await chat.input().press('Enter');
    expect(await page.locator('questline-chat .msg.pending').count()).toBe(1);

    await page.context().setOffline(false);
    await page.waitForFunction(() => {
      const root = document.querySelector('questline-chat')?.shadowRoot;
      return root && !root.querySelector('.msg.pending') && /date the lights must be working/.test(root.querySelector('.msg.bot:last-of-type')?.textContent ?? '')
        && Array.from(root.querySelectorAll('.msg.bot')).some((m: any) => /date the lights/.test(m.textContent));
    });
    await page.locator('questline-chat .conn').waitFor({ state: 'hidden' });
    const all = await chat.messages();
    const ids = all.map((m) => m.id);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(all.filter((m) => m.role === 'user' && m.text === '4')).toHaveLength(1);
    expect(all.filter((m) => m.role === 'user' && m.text === '12')).toHaveLength(1);
    expect(all.filter((m) => /light poles/.test(m.text))).toHaveLength(1);
    expect(problems.filter((p) => !/ERR_INTERNET_DISCONNECTED|net::/.test(p))).toEqual([]);
    await page.close();
  });

  it('goes back one answer, and restarts after asking, with the cleared lines staying cleared after a reload', async () => {
    const { page, chat } = await hostPage('/controls.html', embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow }));
    await chat.launcher().click();
    await page.waitForSelector('questline-chat .msg.bot');
    expect(await page.locator('questline-chat .back').isDisabled()).toBe(true); // nothing to undo yet
    await chat.say('Hi, I want LED lights for a basketball court');
    await chat.say('about 420 m2');
    expect((await chat.lastBot())?.text).toMatch(/lighting does the space have/);

    const before = await chat.lastId();
    await page.click('questline-chat .back');
    await chat.settled(before);
    expect((await chat.lastBot())?.text).toMatch(/square metres/);
    expect(await chat.focused()).toBe('textarea');

    await page.click('questline-chat .restart');
    await page.locator('questline-chat .confirm').waitFor();
    expect(await chat.focused()).toBe('button.action.yes:Start over');
    await page.keyboard.press('Escape'); // cancels the question, not the chat
    expect(await page.locator('questline-chat .confirm').isVisible()).toBe(false);
    expect(await chat.panel().isVisible()).toBe(true);
    await page.click('questline-chat .restart');
    await page.click('questline-chat .confirm .yes');
    await page.waitForFunction(() => {
      const root = document.querySelector('questline-chat')?.shadowRoot;
      return root && root.querySelectorAll('.msg.user').length === 0 && /Are you after new LED lighting/.test(root.querySelector('.msg.bot:last-of-type')?.textContent ?? '');
    });
    const after = await chat.messages();
    expect(after.every((m) => m.role === 'bot')).toBe(true);
    await page.reload();
    await page.waitForFunction((n: number) => document.querySelector('questline-chat')?.shadowRoot?.querySelectorAll('.msg[data-id]').length >= n, after.length);
    await page.waitForTimeout(200);
    expect(await chat.messages()).toEqual(after);
    await page.close();
  });

  it('can be used with the keyboard alone, from the launcher to the end, and Esc gives focus back to the launcher', async () => {
    const { page, chat, problems } = await hostPage('/keys.html', embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow }));
    await chat.launcher().waitFor();
    await page.keyboard.press('Tab'); // the host page's link
    await page.keyboard.press('Tab');
    expect(await chat.focused()).toBe('button.launcher:');
    await page.keyboard.press('Enter');
    await page.waitForSelector('questline-chat .msg.bot');
    expect(await chat.focused()).toBe('textarea');

    const type = async (text: string) => {
      const before = await chat.lastId();
      await page.keyboard.type(text);
      await page.keyboard.press('Enter');
      await chat.settled(before);
    };
    const choose = async (text: string) => {
      const before = await chat.lastId();
      await chat.chip(text).waitFor();
      for (let i = 0; i < 12 && (await chat.focused()) !== `button.chip:${text}`; i++) await page.keyboard.press('Shift+Tab');
      expect(await chat.focused()).toBe(`button.chip:${text}`);
      await page.keyboard.press('Enter');
      await chat.settled(before);
      // back where the next answer goes, unless that choice ended the conversation (the review's confirmation)
      if ((await page.locator('questline-chat .end').count()) === 0) expect(await chat.focused()).toBe('textarea');
    };
    for (const step of SALES_SCRIPT) {
      if ('say' in step) await type(step.say);
      else await choose(step.pick);
    }
    await page.locator('questline-chat .end').waitFor();
    expect(await chat.focused()).toBe('button.action.again:Start a new conversation');
    await page.keyboard.press('Escape');
    expect(await chat.panel().isVisible()).toBe(false);
    expect(await chat.focused()).toBe('button.launcher:');
    expect(await chat.launcher().getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    expect(await chat.panel().isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sends answers typed faster than the rate limit once each, in order, by retrying', async () => {
    const strict = await startTestServer({ rateLimits: { perSocket: { points: 1, seconds: 1 } } });
    try {
      const { page, chat, problems } = await hostPage('/fast.html', embedPage(strict.url, { key: ACME.key, flow: ACME.flow }));
      await chat.launcher().click();
      await page.waitForSelector('questline-chat .msg.bot');
      for (const text of ['Hi, I want LED lights for a basketball court', 'about 420 m2', 'No lights yet']) {
        await chat.input().fill(text);
        await chat.input().press('Enter');
      }
      expect(await page.locator('questline-chat .msg.pending').count()).toBeGreaterThanOrEqual(2);
      await page.waitForFunction(() => {
        const root = document.querySelector('questline-chat').shadowRoot;
        return !root.querySelector('.msg.pending') && /light poles/.test(root.querySelector('.live .msg.bot:last-child')?.textContent ?? '');
      }, undefined, { timeout: 15_000 });
      const all = await chat.messages();
      expect(all.filter((m) => m.role === 'user').map((m) => m.text)).toEqual(['Hi, I want LED lights for a basketball court', 'about 420 m2', 'No lights yet']);
      const ids = all.map((m) => m.id);
      expect(ids).toEqual(ids.map((_, i) => i + 1));
      expect(await page.locator('questline-chat .msg.failed').count()).toBe(0);
      // the limit was really met on the way
      const metrics = await (await fetch(`${strict.url}/metrics`)).text();
      expect(metrics).toMatch(/questline_rejected_requests_total\{[^}]*code="rate_limited"[^}]*\} [1-9]/);
      expect(problems).toEqual([]);
    } finally {
      await strict.dispose();
    }
  });

  it('shows the typing dots while a slow turn runs, and hides them with the reply; the log is busy until the whole reply is in', async () => {
    const store = new SlowStore();
    const slow = await startTestServer({ overrides: { backend: await createEmbeddedBackend({ store, outbox: new MemoryOutbox() }) } });
    try {
      const { page, chat, problems } = await hostPage('/slow.html', embedPage(slow.url, { key: ACME.key, flow: ACME.flow }));
      await chat.launcher().click();
      await page.waitForSelector('questline-chat .msg.bot');
      store.delayMs = 1_200;
      const before = await chat.lastId();
      // each change of the log's aria-busy, with how many bot lines were shown at that moment
      await page.evaluate(() => {
        const root = document.querySelector('questline-chat').shadowRoot;
        const log = root.querySelector('.log');
        window.__busy = [];
        new window.MutationObserver(() => window.__busy.push([log.getAttribute('aria-busy'), root.querySelectorAll('.msg.bot').length]))
          .observe(log, { attributes: true, attributeFilter: ['aria-busy'] });
      });
      const botsBefore = (await chat.messages()).filter((m) => m.role === 'bot').length;
      await chat.input().fill('Hi, I want LED lights for a basketball court');
      await chat.input().press('Enter');
      await page.locator('questline-chat .typing').waitFor({ state: 'visible', timeout: 1_000 });
      expect(await page.locator('questline-chat .log').getAttribute('aria-busy')).toBe('true');
      await screenshot(page, 'widget-7-typing');
      await chat.settled(before);
      expect(await page.locator('questline-chat .typing').isVisible()).toBe(false);
      // the reply is two lines (an intro, then the next question); the log stopped being busy once both were in
      const bots = (await chat.messages()).filter((m) => m.role === 'bot');
      expect(bots.slice(botsBefore).map((m) => m.text)).toEqual([expect.stringMatching(/^Great — /), expect.stringMatching(/square metres/)]);
      expect(await page.evaluate(() => window.__busy)).toEqual([['true', botsBefore], ['false', bots.length]]);
      expect(problems).toEqual([]);
    } finally {
      await slow.dispose();
    }
  });

  it('keeps a message sent while the server\'s disk is full and sends it again until it is saved, once', async () => {
    const store = new FullStore();
    const full = await startTestServer({ overrides: { backend: await createEmbeddedBackend({ store, outbox: new MemoryOutbox() }) } });
    try {
      const { page, chat, problems } = await hostPage('/full.html', embedPage(full.url, { key: ACME.key, flow: ACME.flow }));
      await chat.launcher().click();
      await page.waitForSelector('questline-chat .msg.bot');
      const before = await chat.lastId();
      const botsBefore = (await chat.messages()).filter((m) => m.role === 'bot').length;
      store.full = true;
      await chat.input().fill('Hi, I want LED lights for a basketball court');
      await chat.input().press('Enter');
      // refused with storage_unavailable (nothing saved): the widget holds on to it
      await page.waitForTimeout(1_500);
      expect((await chat.messages()).filter((m) => m.role === 'bot')).toHaveLength(botsBefore);
      store.full = false;
      // it asked to wait 5 s: the same clientId goes again, and the reply comes
      await chat.settled(before);
      const sessionId = (await store.list('acme'))[0]!.id;
      const users = (await store.transcript(sessionId)).filter((e) => e.role === 'user');
      expect(users.map((e) => e.text)).toEqual(['Hi, I want LED lights for a basketball court']);
      expect(problems).toEqual([]);
    } finally {
      await full.dispose();
    }
  });
});

/** A store whose commits take a while, to make turns slow. */
/** A store whose disk is full while `full`: every save fails with ENOSPC, as the file system says it. */
class FullStore extends MemoryStore {
  full = false;
  override async commit(...args: Parameters<MemoryStore['commit']>) {
    if (this.full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return super.commit(...args);
  }
}

class SlowStore extends MemoryStore {
  delayMs = 0;
  override async commit(...args: Parameters<MemoryStore['commit']>) {
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    return super.commit(...args);
  }
}
