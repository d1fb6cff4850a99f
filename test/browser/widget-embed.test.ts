import { expect, it } from 'vitest';
import { STUB } from '../../client/widget/stub.ts';
import { ALLOW_LOOPBACK_FROM_ROUTED_PAGES, axeViolations, describeBrowser, screenshot, serveHtml, useServerAndBrowser } from '../support/browser.ts';
import { TEST_ADMIN_KEY } from '../support/server.ts';
import { ACME, CLINIC, embedPage, openHostPage } from './widget-driver.ts';

// How the widget sits in other people's pages: hostile CSS, the API and its
// queue stub, the three modes, storage choices, theming, a phone-sized
// screen, reduced motion, multi-select quick replies and an axe scan.

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const localStorage: any;
declare const sessionStorage: any;
declare const getComputedStyle: any;

describeBrowser('the chat widget on host pages', () => {
  const suite = useServerAndBrowser({ browserArgs: [ALLOW_LOOPBACK_FROM_ROUTED_PAGES], closePagesAfterEach: true });

  const hostPage = (path: string, html: string, viewport?: { width: number; height: number }) =>
    openHostPage(suite.browser, path, html, viewport ? { viewport } : {});

  it('works on a page whose CSS unsets everything with !important and stacks things at the largest z-index', async () => {
    const hostile = `<style>
      * { all: unset !important; }
      body * { font-size: 40px !important; line-height: 5 !important; color: red !important; z-index: 2147483647 !important; letter-spacing: 12px !important; text-transform: uppercase !important; font-style: italic !important; text-indent: 50px !important; }
      .cover { position: fixed !important; inset: 0 !important; background: rgba(255, 0, 0, 0.08) !important; z-index: 2147483647 !important; }
    </style>`;
    const { page, chat, problems } = await hostPage('/hostile.html', embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow }, hostile, '<div class="cover"></div>'));
    await chat.launcher().waitFor();
    const box = (await chat.launcher().boundingBox())!;
    expect(box.width).toBe(60);
    expect(box.x + box.width).toBeGreaterThan(1280 - 40);
    expect(box.y + box.height).toBeGreaterThan(900 - 40);
    // what is on top at the launcher's centre is the widget, not the cover
    expect(await page.evaluate(([x, y]: number[]) => document.elementFromPoint(x, y)?.tagName, [box.x + 30, box.y + 30])).toBe('QUESTLINE-CHAT');
    await chat.launcher().click();
    await chat.panel().waitFor();
    const panel = (await chat.panel().boundingBox())!;
    expect(panel.width).toBeGreaterThanOrEqual(300);
    expect(panel.height).toBeGreaterThanOrEqual(400);
    expect(await page.evaluate(([x, y]: number[]) => document.elementFromPoint(x, y)?.tagName, [panel.x + panel.width / 2, panel.y + panel.height / 2])).toBe('QUESTLINE-CHAT');
    const style = await page.evaluate(() => {
      const root = document.querySelector('questline-chat').shadowRoot;
      const input = getComputedStyle(root.querySelector('textarea'));
      const bubble = getComputedStyle(root.querySelector('.bubble') ?? root.querySelector('h2'));
      return {
        input: parseFloat(input.fontSize), bubble: parseFloat(bubble.fontSize), colour: getComputedStyle(root.querySelector('h2')).color,
        inherited: [bubble.letterSpacing, bubble.textTransform, bubble.fontStyle, bubble.textIndent, input.letterSpacing].join(' '),
      };
    });
    expect(style.inherited).toBe('normal none normal 0px normal');
    expect(style.input).toBeGreaterThanOrEqual(16);
    expect(style.bubble).toBeLessThan(20);
    expect(style.colour).not.toBe('rgb(255, 0, 0)');
    await page.waitForSelector('questline-chat .msg.bot');
    await chat.say('Hi, I want LED lights for a basketball court');
    await chat.say('about 420 m2');
    await chat.pick('No lights yet');
    expect((await chat.lastBot())?.text).toMatch(/light poles/);
    await screenshot(page, 'embed-1-hostile-css');
    expect(problems).toEqual([]);
  });

  it('takes calls through the queue stub before it loads; inline mode keeps its session per tab with storage "session"', async () => {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Inline host</title></head><body>
      <main><h1>Inline</h1><div id="slot"></div></main>
      <script>
        ${STUB}
        window.seen = [];
        Questline.on('session', function (s) { window.seen.push(['session', s && s.sessionId]); });
        Questline.on('state', function (s) { window.seen.push(['state', s.status]); });
        Questline.init({ key: '${ACME.key}', flow: '${ACME.flow}', mode: 'inline', target: '#slot', storage: 'session', title: 'Inline chat' });
        Questline.open(); // no effect inline, and no error
      </script>
      <script async src="${suite.server.url}/widget.js"></script></body></html>`;
    const { page, chat, problems } = await hostPage('/inline.html', html);
    await page.locator('#slot questline-chat .panel').waitFor();
    expect(await page.locator('questline-chat .panel').getAttribute('role')).toBe('region');
    expect(await page.locator('questline-chat .launcher').count()).toBe(0);
    expect(await page.locator('questline-chat .close').count()).toBe(0);
    expect(await page.locator('questline-chat h2').textContent()).toBe('Inline chat');
    await page.waitForSelector('questline-chat .msg.bot');
    await chat.say('Hi, I want LED lights for a basketball court');
    const seen: Array<[string, string]> = await page.evaluate(() => window.seen);
    const sessionId = seen.find(([e]) => e === 'session')?.[1];
    expect(sessionId).toBeTruthy();
    expect(seen.some(([e, v]) => e === 'state' && v === 'active')).toBe(true);
    const kept = await page.evaluate(() => ({ local: Object.keys(localStorage).filter((k: string) => k.startsWith('questline:')).length, session: Object.keys(sessionStorage).filter((k: string) => k.startsWith('questline:')).length }));
    // the session's slot and the visitor id (docs/insights.md#variants), both in this tab's storage only
    expect(kept).toEqual({ local: 0, session: 2 });
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('questline-chat').length === 1 && window.Questline.element?.session);
    expect(await page.evaluate(() => window.Questline.element.session.sessionId)).toBe(sessionId);
    expect(typeof (await page.evaluate(() => window.Questline.version))).toBe('string');
    expect(problems).toEqual([]);
  });

  it('popup mode opens from the page, moves focus in, and Esc closes it and gives focus back; texts replace the widget\'s strings; storage "none" forgets on reload', async () => {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Popup host</title></head><body>
      <main><h1>Popup</h1><button id="opener" type="button">Talk to us</button></main>
      <script>${STUB} Questline.init({ key: '${ACME.key}', flow: '${ACME.flow}', mode: 'popup', storage: 'none', texts: { back: 'Zurück', send: 'Senden', progress: '{answered} von {total}' } });</script>
      <script async src="${suite.server.url}/widget.js"></script>
      <script>document.getElementById('opener').addEventListener('click', function () { Questline.open(); });</script></body></html>`;
    const { page, chat, problems } = await hostPage('/popup.html', html);
    await page.waitForFunction(() => window.Questline.version && document.querySelector('questline-chat'));
    expect(await chat.launcher().count()).toBe(0);
    expect(await chat.panel().isVisible()).toBe(false);
    await page.focus('#opener');
    await page.keyboard.press('Enter');
    await chat.panel().waitFor();
    expect(await chat.panel().getAttribute('role')).toBe('dialog');
    expect(await chat.panel().getAttribute('aria-labelledby')).toBe('ql-title');
    expect(await chat.focused()).toBe('textarea');
    await page.waitForSelector('questline-chat .msg.bot');
    await chat.say('Hi, I want LED lights for a basketball court');
    const first = await page.evaluate(() => window.Questline.element.session.sessionId);
    // the widget's own strings come from `texts`
    expect(await page.locator('questline-chat .back span').textContent()).toBe('Zurück');
    expect(await page.locator('questline-chat .send').getAttribute('aria-label')).toBe('Senden');
    expect(await page.locator('questline-chat .progress .label').textContent()).toMatch(/^\d+ von \d+$/);
    expect(await page.locator('questline-chat .restart span').textContent()).toBe('Restart');
    await page.keyboard.press('Escape');
    expect(await chat.panel().isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('opener');
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k: string) => k.startsWith('questline:')).length)).toBe(0);

    await page.reload();
    await page.waitForFunction(() => window.Questline.version && document.querySelector('questline-chat'));
    await page.evaluate(() => window.Questline.open());
    await page.waitForFunction((old: string) => {
      const s = window.Questline.element?.session;
      return s && s.sessionId !== old;
    }, first);
    expect(await page.locator('questline-chat .msg.user').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('takes its colours, font and radius from CSS custom properties, exposes parts, and honours position and z-index', async () => {
    const theme = `<style>
      questline-chat { --questline-accent: rgb(200, 0, 100); --questline-font: Georgia, serif; --questline-radius: 4px; }
      questline-chat::part(launcher) { border-radius: 12px; }
      questline-chat::part(header) { background: rgb(20, 20, 20); }
    </style>`;
    const { page, chat } = await hostPage('/theme.html', embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow, position: 'bottom-left', 'z-index': '1234' }, theme));
    await chat.launcher().waitFor();
    const launcher = await chat.launcher().evaluate((el: any) => {
      const cs = getComputedStyle(el);
      return { bg: cs.backgroundColor, radius: cs.borderRadius, z: cs.zIndex, left: el.getBoundingClientRect().left };
    });
    expect(launcher).toEqual({ bg: 'rgb(200, 0, 100)', radius: '12px', z: '1234', left: 20 });
    await chat.launcher().click();
    await page.waitForSelector('questline-chat .msg.bot');
    const inside = await page.evaluate(() => {
      const root = document.querySelector('questline-chat').shadowRoot;
      return {
        header: getComputedStyle(root.querySelector('header')).backgroundColor,
        font: getComputedStyle(root.querySelector('.bubble')).fontFamily,
        radius: getComputedStyle(root.querySelector('.bubble')).borderTopLeftRadius,
        send: getComputedStyle(root.querySelector('.send')).backgroundColor,
        panelLeft: root.querySelector('.panel').getBoundingClientRect().left,
      };
    });
    expect(inside).toEqual({ header: 'rgb(20, 20, 20)', font: 'Georgia, serif', radius: '4px', send: 'rgb(200, 0, 100)', panelLeft: 20 });
    await screenshot(page, 'embed-2-themed');
  });

  it('fills a 360px-wide screen, keeps the input at 16px or more, and stops animating for reduced motion', async () => {
    const { page, chat, problems } = await hostPage('/phone.html', embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow, title: 'Acme Lighting' }), { width: 360, height: 740 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await chat.launcher().click();
    await page.waitForSelector('questline-chat .msg.bot');
    expect(await chat.panel().boundingBox()).toEqual({ x: 0, y: 0, width: 360, height: 740 });
    expect(await chat.launcher().isVisible()).toBe(false); // the panel covers the screen; its close button closes it
    await chat.say('Hi, I want LED lights for a basketball court');
    await chat.say('about 420 m2');
    await chat.chip('No lights yet').waitFor();
    const layout = await page.evaluate(() => {
      const root = document.querySelector('questline-chat').shadowRoot;
      const chips = Array.from(root.querySelectorAll('.chip')).map((c: any) => c.getBoundingClientRect().right);
      return {
        input: parseFloat(getComputedStyle(root.querySelector('textarea')).fontSize),
        pageWidth: document.documentElement.scrollWidth,
        chipsInside: chips.every((r: number) => r <= 360),
        animation: getComputedStyle(root.querySelector('.msg.new')).animationName,
      };
    });
    expect(layout).toEqual({ input: 16, pageWidth: 360, chipsInside: true, animation: 'none' });
    await screenshot(page, 'embed-3-phone-360');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('questline-chat').shadowRoot.querySelector('.msg.new')).animationName)).toBe('ql-msg');
    await page.click('questline-chat .close');
    expect(await chat.launcher().isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });

  it('offers several choices at once for a multiple-choice question, and passes an axe scan open, with chips and closed', async () => {
    const { page, chat, problems } = await hostPage('/clinic.html', embedPage(suite.server.url, { key: CLINIC.key, flow: CLINIC.flow, title: 'Northside Clinic' }));
    await chat.launcher().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await chat.launcher().click();
    await page.waitForSelector('questline-chat .msg.bot');
    for (const text of ['Jane Marie Doe', 'March 27, 1984', 'female', '(415) 555-0132', 'yes, through work', 'Blue Cross Blue Shield', 'XGP-449182']) await chat.say(text);
    await chat.pick('Feeling unwell');
    expect((await chat.lastBot())?.text).toMatch(/more than one/);
    const send = page.locator('questline-chat .chip.submit');
    expect(await send.isDisabled()).toBe(true);
    await chat.chip('Fever').click();
    await chat.chip('Cough').click();
    expect(await chat.chip('Fever').getAttribute('aria-pressed')).toBe('true');
    expect(await chat.chip('Headache').getAttribute('aria-pressed')).toBe('false');
    expect(await send.textContent()).toBe('Send (2)');
    await screenshot(page, 'embed-4-multi-select');
    expect(await axeViolations(page)).toEqual([]);
    const before = await chat.lastId();
    await send.click();
    await chat.settled(before);
    const mine = (await chat.messages()).filter((m) => m.role === 'user').at(-1);
    expect(mine?.text).toBe('Fever, Cough');
    const answers = await fetchAnswers(page);
    expect(answers.symptoms).toEqual(['fever', 'cough']);
    expect(problems).toEqual([]);
  });

  it('shows the hand-over to a person as an end state the visitor can still write in, and a team member\'s reply', async () => {
    const { page, chat, problems } = await hostPage('/human.html', embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow }));
    await chat.launcher().click();
    await page.waitForSelector('questline-chat .msg.bot');
    await chat.say('warranty');
    await chat.say('human');
    await page.locator('questline-chat .end').waitFor();
    expect(await page.locator('questline-chat .end strong').textContent()).toBe('A person from our team will take it from here.');
    expect(await chat.input().isDisabled()).toBe(false);
    // no contact yet: the bot asks for one while the visitor waits, skippable (issue 31)
    expect(await page.locator('questline-chat .chip').allTextContents()).toEqual(['Skip']);
    expect((await chat.messages()).some((m) => m.role === 'bot' && /best email address or phone number/.test(m.text))).toBe(true);
    await screenshot(page, 'embed-5-handed-over');
    expect(await axeViolations(page)).toEqual([]);

    // closed, a team member's reply marks the launcher; it shows as theirs, as text
    await page.keyboard.press('Escape');
    expect(await page.locator('questline-chat .launcher .dot').isVisible()).toBe(false);
    const s = (await page.evaluate(() => window.Questline.element.session)) as { sessionId: string };
    const res = await fetch(`${suite.server.url}/api/v1/admin/sessions/${s.sessionId}/messages`, {
      method: 'POST', headers: { 'x-questline-admin': TEST_ADMIN_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Hi, Sam here <b>from support</b>.' }),
    });
    expect(res.status).toBeLessThan(300);
    await page.locator('questline-chat .launcher .dot').waitFor();
    expect(await chat.launcher().getAttribute('aria-label')).toBe('Open chat (new message)');
    await chat.launcher().click();
    expect(await chat.launcher().getAttribute('aria-label')).toBe('Open chat');
    expect(await page.locator('questline-chat .launcher .dot').isVisible()).toBe(false);
    const last = (await chat.messages()).at(-1);
    expect(last).toMatchObject({ role: 'operator', text: 'Hi, Sam here <b>from support</b>.' });
    expect(await page.locator('questline-chat .msg.operator .who').textContent()).toBe('Team member');
    await chat.input().fill('Thanks Sam');
    await chat.input().press('Enter');
    await page.waitForFunction(() => !document.querySelector('questline-chat').shadowRoot.querySelector('.msg.pending'));
    expect((await chat.messages()).at(-1)).toMatchObject({ role: 'user', text: 'Thanks Sam' });
    expect(problems).toEqual([]);
  });

  it('says so when the flow does not exist, and loading the script twice changes nothing', async () => {
    const { page, chat } = await hostPage('/typo.html', embedPage(suite.server.url, { key: ACME.key, flow: 'salse' }));
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await chat.launcher().click();
    await page.locator('questline-chat .conn.failed').waitFor();
    // the visitor reads plain words; the page's developer finds the reason in the console
    expect(await page.locator('questline-chat .conn').textContent()).toBe('The chat is unavailable right now.');
    expect(warnings.join('\n')).toMatch(/offers no flow 'salse'/);
    expect(await chat.input().isDisabled()).toBe(true);
    await page.evaluate((src: string) => {
      const again = document.createElement('script');
      again.src = src;
      again.dataset.key = 'pk_acme_demo';
      again.dataset.flow = 'flow.sales';
      document.body.append(again);
      return new Promise((resolve) => again.addEventListener('load', resolve));
    }, `${suite.server.url}/widget.js`);
    expect(await page.locator('questline-chat').count()).toBe(1);
  });

  it('tells a page whose origin the tenant does not allow that it cannot reach the server', async () => {
    const page = await suite.browser.newPage();
    await serveHtml(page, 'http://shop.example/', embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow }));
    await page.goto('http://shop.example/');
    await page.locator('questline-chat .launcher').click();
    await page.locator('questline-chat .conn.failed').waitFor({ timeout: 15_000 });
    const shown = await page.locator('questline-chat .conn').textContent();
    expect(shown).toBe('The chat is unavailable right now.');
  });

  /** The session's answers, read with its token through the REST API. */
  async function fetchAnswers(page: import('playwright-core').Page): Promise<Record<string, unknown>> {
    const s = (await page.evaluate(() => window.Questline.element.session)) as { sessionId: string; token: string };
    const res = await fetch(`${suite.server.url}/api/v1/sessions/${s.sessionId}`, { headers: { authorization: `Bearer ${s.token}` } });
    return ((await res.json()) as { answers: Record<string, unknown> }).answers;
  }
});
