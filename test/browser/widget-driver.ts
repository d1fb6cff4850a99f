import type { Page } from 'playwright-core';
import { serveHtml, type TestBrowser } from '../support/browser.ts';

// Drives the chat widget (<questline-chat>, an open shadow root) in a page.
// Playwright's CSS locators pierce open shadow roots; page functions reach
// into `shadowRoot` themselves. Page functions run in the browser: the test
// project compiles without the DOM library, so they use loose types.

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

/** The public demo tenant (flows/tenants/acme/tenant.json) and an origin it allows. */
export const ACME = { key: 'pk_acme_demo', flow: 'flow.sales' } as const;
export const CLINIC = { key: 'pk_northside_demo', flow: 'flow.patient_intake' } as const;
export const HOST_ORIGIN = 'http://localhost:3000';

/** A plain host page that embeds the widget with the script tag. */
export function embedPage(serverUrl: string, attrs: Record<string, string>, extraHead = '', body = ''): string {
  const data = Object.entries(attrs).map(([k, v]) => ` data-${k}="${v}"`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host page</title>${extraHead}</head>
<body><main><h1>Welcome to the host page</h1><p><a href="#top">A link before the widget</a></p>${body}</main>
<script async src="${serverUrl}/widget.js"${data}></script></body></html>`;
}

/**
 * A fresh tab on a host page served at `HOST_ORIGIN + path`, with nothing
 * stored for the origin (local and session storage cleared before any widget
 * runs); page and console errors are collected in `problems`, and `watch`
 * attaches other listeners before the first load.
 */
export async function openHostPage(browser: TestBrowser, path: string, html: string,
  opts: { viewport?: { width: number; height: number }; watch?: (page: Page) => void } = {}): Promise<{ page: Page; chat: ChatDriver; problems: string[] }> {
  const page = await browser.newPage(opts.viewport);
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  opts.watch?.(page);
  await serveHtml(page, `${HOST_ORIGIN}/blank.html`, '<!doctype html><title>blank</title>');
  await page.goto(`${HOST_ORIGIN}/blank.html`);
  await page.evaluate(() => {
    (globalThis as any).localStorage.clear();
    (globalThis as any).sessionStorage.clear();
  });
  await serveHtml(page, `${HOST_ORIGIN}${path}`, html);
  await page.goto(`${HOST_ORIGIN}${path}`);
  return { page, chat: new ChatDriver(page), problems };
}

export interface MessageView {
  id: number | null;
  role: string;
  kind: string | null;
  text: string;
  pending: boolean;
}

export class ChatDriver {
  constructor(readonly page: Page) {}

  readonly launcher = () => this.page.locator('questline-chat .launcher');
  readonly panel = () => this.page.locator('questline-chat .panel');
  readonly input = () => this.page.locator('questline-chat textarea');
  readonly chip = (text: string) => this.page.locator('questline-chat .chip', { hasText: text });

  /** Every message in the transcript, in page order. */
  messages(): Promise<MessageView[]> {
    return this.page.evaluate(() => {
      const root = document.querySelector('questline-chat')?.shadowRoot;
      if (!root) return [];
      return Array.from(root.querySelectorAll('.msg')).map((el: any) => ({
        id: el.dataset.id ? Number(el.dataset.id) : null,
        role: el.classList.contains('bot') ? 'bot' : el.classList.contains('user') ? 'user' : 'operator',
        kind: el.dataset.kind ?? null,
        text: el.querySelector('.bubble')?.textContent ?? '',
        pending: el.classList.contains('pending'),
      }));
    });
  }

  /** The highest message id shown. */
  async lastId(): Promise<number> {
    const ids = (await this.messages()).map((m) => m.id ?? 0);
    return ids.length ? Math.max(...ids) : 0;
  }

  /**
   * Waits until the turn after `afterId` is over: a newer bot line shown, nothing pending, no typing, and the log
   * no longer busy (the server acknowledges a message after all of the turn's lines, which arrive one by one).
   */
  async settled(afterId: number): Promise<void> {
    await this.page.waitForFunction((after: number) => {
      const root = document.querySelector('questline-chat')?.shadowRoot;
      if (!root || root.querySelector('.msg.pending') || root.querySelector('.log[aria-busy="true"]')) return false;
      const shown = Array.from(root.querySelectorAll('.msg[data-id]')) as any[];
      const last = shown[shown.length - 1];
      return last && last.classList.contains('bot') && Number(last.dataset.id) > after && root.querySelector('.typing').hidden;
    }, afterId);
  }

  /** Types an answer and presses Enter; waits for the bot's reply. */
  async say(text: string): Promise<void> {
    const before = await this.lastId();
    await this.input().fill(text);
    await this.input().press('Enter');
    await this.settled(before);
  }

  /** Clicks a quick reply; waits for the bot's reply. */
  async pick(text: string): Promise<void> {
    const before = await this.lastId();
    await this.chip(text).click();
    await this.settled(before);
  }

  /** The text of the last bot line. */
  async lastBot(): Promise<MessageView | undefined> {
    return (await this.messages()).filter((m) => m.role === 'bot').at(-1);
  }

  /** Where focus is inside the widget: a selector-ish description, or null when it is outside. */
  focused(): Promise<string | null> {
    return this.page.evaluate(() => {
      const host = document.querySelector('questline-chat');
      if (!host || document.activeElement !== host) return null;
      const el = host.shadowRoot.activeElement;
      if (!el) return 'host';
      return `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''}${el.tagName === 'BUTTON' ? `:${el.textContent.trim()}` : ''}`;
    });
  }

  /** The session the widget stored for (server, key, flow), if any. */
  stored(): Promise<{ sessionId: string; token: string; floor: number } | null> {
    return this.page.evaluate(() => {
      for (const area of [localStorage, sessionStorage]) {
        for (let i = 0; i < area.length; i++) {
          const k = area.key(i)!;
          if (k.startsWith('questline:') && k !== 'questline:visitor') return JSON.parse(area.getItem(k)!);
        }
      }
      return null;
    });
  }
}

declare const localStorage: any;
declare const sessionStorage: any;

/** The sales flow from the start to the end, as the acme tenant runs it (quick replies marked). */
export const SALES_SCRIPT: Array<{ say: string } | { pick: string }> = [
  { say: 'Hi, I want LED lights for a basketball court' },
  { say: 'about 420 m2' },
  { pick: 'No lights yet' },
  { say: '4' },
  { say: '12' },
  { say: 'skip' },
  { say: '$25k' },
  { pick: 'Within 3 months' },
  { say: "I'm Ann Lee" },
  { say: 'Northside High School' },
  { say: 'ann@northside.edu' },
  // the review of the answers before they are sent
  { pick: "Yes, that's right" },
];
