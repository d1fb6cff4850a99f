import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chat, NORTHSIDE_KEY, type ChatClient } from '../e2e/helpers.ts';
import { describeBrowser, launchBrowser, type TestBrowser } from '../support/browser.ts';
import { startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';

// The operator console shows each session's language: a column of the
// sessions list and a line of the session's details. The visitors are
// socket.io clients: a German visitor of the sales flow (which speaks en and
// de), a Hebrew one of the same flow (it falls back to the flow's default), a
// patient whose page passed its language in the context (the patient flow
// declares no locales) and one with no language at all.
// Screenshot: test-artifacts/admin-console-locale.png.

const ARTIFACTS = join(process.cwd(), 'test-artifacts');

describeBrowser('operator console: session languages', () => {
  let server: TestServer;
  let browser: TestBrowser;
  const visitors: ChatClient[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [server, browser] = await Promise.all([startTestServer({ store: 'memory' }), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    for (const v of visitors) v.close();
    await browser?.close();
    await server?.dispose();
  });

  /** A visitor who started a flow (the sales flow unless told) with this start payload; returns the session id and the state the server sent. */
  async function visitor(start0: { flow?: string; locale?: string; context?: Record<string, string> } = {}, key?: string): Promise<{ sessionId: string; state: { locale?: string } }> {
    const v = await chat(server.url, key ? { key } : {});
    visitors.push(v);
    const start = await v.request('session:start', { flow: 'flow.sales', ...start0 });
    expect(start.ok).toBe(true);
    return { sessionId: start.sessionId as string, state: start.state };
  }

  /** The text of a session's row in the list, cell by cell. */
  const rowCells = (page: Page, sessionId: string) =>
    page.locator('#sessions-body tr', { has: page.locator(`button[data-session="${sessionId}"]`) }).locator('td').allTextContents();

  it('lists each session with its locale and names the language in the session details', async () => {
    const german = await visitor({ locale: 'de-DE' });
    const hebrew = await visitor({ locale: 'he-IL' });
    const patient = await visitor({ flow: 'flow.patient_intake', context: { locale: 'he-IL' } }, NORTHSIDE_KEY);
    const none = await visitor({ flow: 'flow.patient_intake' }, NORTHSIDE_KEY);
    expect(german.state.locale).toBe('de');
    expect(hebrew.state.locale).toBe('en');
    expect(patient.state.locale).toBe('he-IL');
    expect(none.state.locale).toBeUndefined();

    const page = await browser.newPage({ width: 1440, height: 900 });
    page.setDefaultTimeout(8_000);
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Admin key').fill(TEST_ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    await page.locator(`button[data-session="${none.sessionId}"]`).waitFor();

    expect(await page.locator('#sessions-table thead th').allTextContents()).toEqual(['Visitor', 'Status', 'Waiting', 'Language', 'Flow']);
    expect((await rowCells(page, german.sessionId))[3]).toBe('de');
    expect((await rowCells(page, hebrew.sessionId))[3]).toBe('en');
    expect((await rowCells(page, patient.sessionId))[3]).toBe('he-IL');
    expect((await rowCells(page, none.sessionId))[3]).toBe('—');
    expect(await page.locator('#sessions-body tr', { has: page.locator(`button[data-session="${german.sessionId}"]`) }).locator('td.locale').getAttribute('title')).toBe('German');

    await page.getByRole('button', { name: `session ${german.sessionId} (active)` }).click();
    await page.getByRole('heading', { name: `Session ${german.sessionId}` }).waitFor();
    await expect.poll(() => page.locator('#session-meta').textContent()).toContain('· language de (German) ·');
    await page.screenshot({ path: join(ARTIFACTS, 'admin-console-locale.png') });

    await page.getByRole('button', { name: `session ${none.sessionId} (active)` }).click();
    await page.getByRole('heading', { name: `Session ${none.sessionId}` }).waitFor();
    await expect.poll(() => page.locator('#session-meta').textContent()).toContain('flow.patient_intake');
    expect(await page.locator('#session-meta').textContent()).not.toContain('language');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
