import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, NORTHSIDE_KEY } from '../e2e/helpers.ts';
import { ALLOW_LOOPBACK_FROM_ROUTED_PAGES, axeViolations, describeBrowser, launchBrowser, screenshot, type TestBrowser } from '../support/browser.ts';
import { REPO_FLOWS, startTestServer, TEST_ADMIN_KEY, type TestServer } from '../support/server.ts';
import { ChatDriver, CLINIC, embedPage, openHostPage } from './widget-driver.ts';

// The Studio at /studio in headless Chromium against a real server on a copy
// of flows/: open the patient intake, break a guard and see it underlined,
// fix it, change the name prompt in the node inspector, chat with the draft
// (the real widget, a preview session), save the chat as a golden, run the
// goldens with coverage on the graph, publish, see a new widget session speak
// the new words while an older session keeps the old, diff and roll back.
// Screenshots: test-artifacts/studio-*.png.

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

const SOURCE = 'global/patient-intake.flow.yaml';
const OLD = "What is the patient's full legal name?";
const NEW = 'Please tell me the full legal name of the patient.';

describeBrowser('Studio', () => {
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  let flowsDir: string;
  const problems: string[] = [];

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'questline-studio-browser-'));
    flowsDir = join(root, 'flows');
    cpSync(REPO_FLOWS, flowsDir, { recursive: true });
    [server, browser] = await Promise.all([startTestServer({ env: { FLOWS_DIR: flowsDir } }), launchBrowser([ALLOW_LOOPBACK_FROM_ROUTED_PAGES])]);
    page = await browser.newPage({ width: 1600, height: 1000 });
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    if (flowsDir) rmSync(join(flowsDir, '..'), { recursive: true, force: true });
  });

  const status = () => page.locator('#check-status');
  const startRest = async () => {
    const res = await api(server.url, '/tenants/northside-clinic/sessions', { body: { flow: 'flow.patient_intake' }, headers: { 'x-questline-key': NORTHSIDE_KEY } });
    return res.body as { sessionId: string; token: string; messages: Array<{ text: string; kind?: string }> };
  };

  it('signs in with the admin key and opens a flow with its graph; passes axe', async () => {
    await page.goto(`${server.url}/studio`);
    expect(await axeViolations(page)).toEqual([]);
    await page.fill('#admin-key', TEST_ADMIN_KEY);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.inputValue('#source-select')).toBe(SOURCE);
    await page.locator('#check-status.ok').waitFor();
    await page.locator('#map .node[data-id="q.full_name"]').waitFor();
    expect(await page.textContent('#source-flows')).toContain('northside-clinic / flow.patient_intake');
    await screenshot(page, 'studio-open');
    expect(await axeViolations(page)).toEqual([]);
  }, 90_000);

  it('selects a node\'s source from the graph with the keyboard, and the node from the cursor', async () => {
    await page.locator('#map .node[data-id="q.guardian_name"]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('#graph-caption')).toContain('Selected q.guardian_name');
    expect(await page.locator('#map .node.selected').getAttribute('data-id')).toBe('q.guardian_name');
    expect(await page.inputValue('#inspector-prompt')).toContain('parent or legal guardian');
    // the editor's cursor is on the node's source: its first line is in view
    await expect.poll(() => page.locator('.cm-activeLine').textContent()).toContain('id: q.guardian_name');
  }, 90_000);

  it('underlines a broken guard as you type and clears it when fixed', async () => {
    // from `id: q.guardian_name`, four lines down is `when: answers.age < 18`
    await page.locator('.cm-content').focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    expect(await page.locator('.cm-activeLine').textContent()).toContain('when: answers.age < 18');
    await page.keyboard.type(' &&');
    await page.locator('#check-status.bad').waitFor();
    await page.locator('.cm-lintRange-error').first().waitFor();
    const guardLine = readFileSync(join(REPO_FLOWS, SOURCE), 'utf8').split('\n').findIndex((l) => l.includes('when: answers.age < 18')) + 1;
    expect(await page.textContent('#diagnostics')).toMatch(new RegExp(`^${guardLine}:\\d+ error`));
    expect(await page.isDisabled('#publish')).toBe(true);
    await screenshot(page, 'studio-broken-guard');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace');
    await page.locator('#check-status.ok').waitFor();
    expect(await page.locator('.cm-lintRange-error').count()).toBe(0);
  }, 90_000);

  it('edits the name prompt in the node inspector, keeping the rest of the file', async () => {
    await page.locator('#map .node[data-id="q.full_name"]').click();
    await expect.poll(() => page.inputValue('#inspector-prompt')).toContain(OLD);
    const prompt = (await page.inputValue('#inspector-prompt')).replace(OLD, NEW);
    await page.fill('#inspector-prompt', prompt);
    await page.click('#inspector-apply');
    await page.locator('#check-status.ok').waitFor();
    await expect.poll(() => page.textContent('#graph-caption')).toContain('changed in the source');
  }, 90_000);

  it('chats with the draft in the real widget as a preview session, saves it as a golden and runs the goldens with coverage', async () => {
    await page.click('#preview-start');
    await expect.poll(() => page.textContent('#preview-status'), { timeout: 20_000 }).toContain('Preview session');
    const chat = new ChatDriver(page);
    await expect.poll(async () => (await chat.messages()).map((m) => m.text).join(' '), { timeout: 20_000 }).toContain(NEW);
    await chat.say('Ann Lee');
    await expect.poll(async () => (await chat.messages()).map((m) => m.text).join(' '), { timeout: 20_000 }).toMatch(/date of birth/);
    // the console lists it as a preview
    const listed = await api(server.url, '/admin/sessions?tenant=northside-clinic', { headers: { 'x-questline-admin': TEST_ADMIN_KEY } });
    expect(listed.body.sessions.filter((s: { preview?: boolean }) => s.preview)).toHaveLength(1);
    await page.locator('.trace-box summary').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#trace li').count()).toBeGreaterThan(2);
    await screenshot(page, 'studio-preview');
    // the widget stays inside its column at the laptop sizes too (three columns at 1280, the side panel under them at 1024)
    for (const [width, height] of [[1280, 800], [1024, 768]] as const) {
      await page.setViewportSize({ width, height });
      await page.locator('#preview').scrollIntoViewIfNeeded();
      const fit = await page.evaluate(() => {
        const box = (s: string) => document.querySelector(s).getBoundingClientRect();
        return { chat: box('#preview questline-chat'), column: box('.side-panel'), scroll: document.documentElement.scrollWidth, view: document.documentElement.clientWidth };
      });
      expect(fit.chat.width).toBeGreaterThan(200);
      expect(fit.chat.left).toBeGreaterThanOrEqual(fit.column.left);
      expect(fit.chat.right).toBeLessThanOrEqual(fit.column.right);
      expect(fit.scroll).toBe(fit.view);
      await screenshot(page, `studio-preview-${width}`);
    }
    await page.setViewportSize({ width: 1600, height: 1000 });

    page.once('dialog', (d) => void d.accept('studio-ann'));
    await page.click('#golden-save');
    await expect.poll(() => page.textContent('#golden-status')).toContain('Saved global/studio-ann.golden.yaml');
    const golden = readFileSync(join(flowsDir, 'global', 'studio-ann.golden.yaml'), 'utf8');
    expect(golden).toContain('user: Ann Lee');
    expect(golden).toContain('node: q.date_of_birth');

    await page.click('#goldens-run');
    // the goldens run on the draft: the one that expects the old name prompt after "undo" fails, as it should
    await expect.poll(() => page.textContent('#golden-status'), { timeout: 60_000 }).toMatch(/\d+ passed, 1 failed/);
    expect(await page.textContent('#golden-status')).toContain('patient-commands.golden.yaml');
    // the repository's goldens exercise all of this flow; with only the new golden, most of the graph is painted as never exercised
    for (const f of readdirSync(join(flowsDir, 'global'))) if (/^patient-.*\.golden\.yaml$/.test(f)) rmSync(join(flowsDir, 'global', f));
    await page.click('#goldens-run');
    await expect.poll(() => page.textContent('#golden-status'), { timeout: 60_000 }).toMatch(/^1 passed, 0 failed/);
    const painted = await page.locator('#map .node.uncovered, #map .edge.uncovered').count();
    expect(painted, (await page.textContent('#golden-status')) ?? '').toBeGreaterThan(0);
    expect(painted).toBeLessThan(await page.locator('#map .node, #map .edge').count());
    await screenshot(page, 'studio-coverage');
  }, 90_000);

  it('publishes: a new widget session speaks the new words, an older session keeps the old; diff and roll back', async () => {
    const older = await startRest();
    expect(older.messages.map((m) => m.text).join(' ')).toContain(OLD);

    await page.fill('#publish-note', 'friendlier name prompt');
    await page.click('#publish');
    await expect.poll(() => page.textContent('#publish-status')).toContain('now serves revision');
    // only the prompt's line changed: comments and formatting are the file's own
    const before = readFileSync(join(REPO_FLOWS, SOURCE), 'utf8').split('\n');
    const after = readFileSync(join(flowsDir, SOURCE), 'utf8').split('\n');
    expect(after).toHaveLength(before.length);
    const changed = after.flatMap((l, i) => (l === before[i] ? [] : [i]));
    expect(changed).toHaveLength(1);
    expect(after[changed[0]!]).toContain(NEW);
    await screenshot(page, 'studio-published');

    const host = await openHostPage(browser, '/clinic.html', embedPage(server.url, { key: CLINIC.key, flow: CLINIC.flow, mode: 'inline', target: '#chat' }, '', '<div id="chat"></div>'));
    await screenshot(host.page, 'studio-new-widget-session');
    expect(host.problems).toEqual([]);
    await expect.poll(async () => (await host.chat.messages()).map((m) => m.text).join(' ')).toContain(NEW);
    await screenshot(host.page, 'studio-new-widget-session');
    await host.page.close();

    // the older session is pinned: "back" asks in the old words
    await api(server.url, `/sessions/${older.sessionId}/messages`, { body: { text: 'Ann Lee', clientId: 'o1' }, headers: { authorization: `Bearer ${older.token}` } });
    const back = await api(server.url, `/sessions/${older.sessionId}/messages`, { body: { text: 'back', clientId: 'o2' }, headers: { authorization: `Bearer ${older.token}` } });
    expect(back.body.messages.map((m: { text: string }) => m.text).join(' ')).toContain(OLD);

    await expect.poll(() => page.locator('#revisions li').count()).toBe(2);
    await page.locator('#revisions button', { hasText: 'Diff with current' }).click();
    await expect.poll(() => page.locator('#diff .add').textContent()).toContain(NEW);
    expect(await page.locator('#diff .del').textContent()).toContain(OLD);
    await screenshot(page, 'studio-diff');

    page.once('dialog', (d) => void d.accept());
    await page.locator('#revisions button', { hasText: 'Roll back to this' }).click();
    await expect.poll(() => page.textContent('#publish-status')).toContain('Rolled back');
    expect((await startRest()).messages.map((m) => m.text).join(' ')).toContain(OLD);
    await expect.poll(() => page.locator('#revisions li').count()).toBe(3);
    await screenshot(page, 'studio-rolled-back');

    // "Describe your intake" without ANTHROPIC_API_KEY says what it needs
    await page.locator('.describe summary').focus();
    await page.keyboard.press('Enter');
    await page.fill('#draft-description', 'Book a bike repair: name, e-bike or not, what is wrong.');
    await page.locator('#draft-form button[type=submit]').click();
    await expect.poll(() => page.textContent('#draft-status')).toContain('ANTHROPIC_API_KEY');
    expect(await axeViolations(page)).toEqual([]);
    expect(existsSync(join(flowsDir, SOURCE))).toBe(true);
    // the browser logs the 501 of the draft request above; nothing else may be logged
    expect(problems.filter((p) => !/status of 501/.test(p))).toEqual([]);
  }, 90_000);

  it('edits a node in the inspector: a prompt language, constraints, optional, a validation rule, the answer type, edges; only those fields change', async () => {
    const before = readFileSync(join(flowsDir, SOURCE), 'utf8');
    const node = async (id: string) => {
      await page.locator(`#map .node[data-id="${id}"]`).click();
      await expect.poll(() => page.textContent('#inspector-id')).toContain(`Node ${id}`);
    };
    const applied = async (what: string) => {
      await page.click('#inspector-apply');
      await expect.poll(() => page.textContent('#inspector-status')).toContain(`Applied: ${what}`);
    };
    // a prompt and its languages: the plain prompt becomes the flow's default language's
    await node('q.phone');
    await page.fill('#inspector-locale', 'es');
    await page.click('#inspector-add-locale');
    await page.fill('#inspector-prompt-es', '¿A qué número de teléfono podemos llamarle?');
    await applied('prompt, locales');
    expect(await page.inputValue('#inspector-prompt-en')).toContain('mobile number');
    // constraints, optional and a validation rule with its message
    await node('q.symptom_days');
    await page.fill('#inspector-max', '365');
    await page.check('#inspector-optional');
    await page.click('#inspector-add-rule');
    await page.fill('#inspector-rule-0', 'value <= 365');
    await page.fill('#inspector-rule-0-message', 'Please give the number of days, up to a year.');
    await applied('answer, required, validate');
    // the answer type, with its choices
    await node('q.insurance_provider');
    await page.selectOption('#inspector-type', 'enum');
    await page.fill('#inspector-options', 'aetna, cigna, other');
    await applied('answer');
    // the node's edges: a guard and a target
    await node('q.symptoms');
    await page.fill('#inspector-edge-0-guard', "'chest_pain' in answers.symptoms");
    await page.selectOption('#inspector-edge-1-to', 'q.takes_medication');
    await applied('2 edges');
    await expect.poll(async () => `${await page.textContent('#check-status')} ${await page.textContent('#diagnostics')}`, { timeout: 20_000 }).toMatch(/^No errors/);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator('#inspector-apply').scrollIntoViewIfNeeded();
    await screenshot(page, 'studio-inspector');
    await page.setViewportSize({ width: 1600, height: 1000 });

    await page.fill('#publish-note', 'inspector edits');
    await page.click('#publish');
    await expect.poll(() => page.textContent('#publish-status')).toContain('now serves revision');
    const after = readFileSync(join(flowsDir, SOURCE), 'utf8');
    const doc = parse(after) as { locales: string[]; nodes: Array<Record<string, any>>; edges: Array<Record<string, any>> };
    // the new language is declared by the flow, next to its label
    expect(doc.locales).toEqual(['en', 'es']);
    expect(after).toContain('label: Clinic patient check-in\nlocales: [ en, es ]\n');
    const n = (id: string) => doc.nodes.find((x) => x.id === id)!;
    expect(n('q.phone').prompt).toEqual({ en: parse(before).nodes.find((x: { id: string }) => x.id === 'q.phone').prompt, es: '¿A qué número de teléfono podemos llamarle?' });
    expect(n('q.symptom_days').answer).toEqual({ type: 'integer', min: 0, max: 365, unit: 'days' });
    expect(n('q.symptom_days').required).toBe(false);
    expect(n('q.symptom_days').validate).toEqual([{ expr: 'value <= 365', message: 'Please give the number of days, up to a year.' }]);
    expect(n('q.insurance_provider').answer).toEqual({ type: 'enum', options: ['aetna', 'cigna', 'other'] });
    expect(doc.edges.find((e) => e.id === 'e.symptoms.red_flag')!.guard).toBe("'chest_pain' in answers.symptoms");
    expect(doc.edges.find((e) => e.id === 'e.symptoms.duration')!.to).toBe('q.takes_medication');
    // comments and every other line are the file's own: the lines that went are the touched fields' only
    const comments = (t: string) => t.split('\n').filter((l) => /(^|\s)#/.test(l));
    expect(comments(after)).toEqual(comments(before));
    const gone = before.split('\n').filter((l) => !after.split('\n').includes(l));
    expect(gone.map((l) => l.trim().split(':')[0])).toEqual(['prompt', 'answer', 'answer', 'guard', '- { id']);
  }, 90_000);
});
