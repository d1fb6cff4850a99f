import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger, createQuestline, type Questline } from '../../server/api/server.ts';
import { describeBrowser, launchBrowser, screenshot, type TestBrowser } from '../support/browser.ts';
import { sampleActions } from '../../examples/sample-actions.ts';
import { REPO_FLOWS } from '../support/server.ts';
import { ChatDriver } from './widget-driver.ts';

// Questline mounted under a path of the host's app: the widget finds its
// bundles and its socket under the mount (examples/express-mount.mjs, run as
// a user runs it with --serve), and so do the demo page and the operator
// console (createQuestline({ mountPath }) in an app of the test's own).

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN_KEY = 'mounted-admin-key-0123456789abcdef';

let example: ChildProcess;
let exampleUrl: string;
let browser: TestBrowser;
let q: Questline;
let http: Server;
let consoleUrl: string;

describeBrowser('Questline mounted under a path', () => {
  beforeAll(async () => {
    example = spawn(process.execPath, ['--conditions=questline-source', '--import', 'tsx', 'examples/express-mount.mjs', '--serve'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PORT: '0' } });
    let err = '';
    example.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    exampleUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      example.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /serving (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
        if (m) resolve(m[1]!);
      });
      example.once('exit', (code) => reject(new Error(`examples/express-mount.mjs exited (${code}) before serving:\n${out}\n${err}`)));
    });

    q = await createQuestline({ flowsDir: REPO_FLOWS, mountPath: '/support/chat', adminKey: ADMIN_KEY, logger: createLogger('silent'), actions: sampleActions });
    const app = express();
    app.use('/support/chat', q.handler);
    http = createServer(app);
    q.attach(http);
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    consoleUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/support/chat`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    example?.kill('SIGTERM');
    await q?.close();
  });

  it('the express-mount example serves the widget under /chat and a visitor finishes the signup in it', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    const loaded: string[] = [];
    const failed: string[] = [];
    page.on('response', (r) => (r.status() >= 400 ? failed : loaded).push(`${r.status()} ${new URL(r.url()).pathname}`));
    await page.goto(`${exampleUrl}/`);
    const chat = new ChatDriver(page);
    await chat.launcher().click();
    await page.waitForSelector('questline-chat .msg.bot');
    expect((await chat.lastBot())?.text).toBe('What is your work email?');
    await chat.say('bob@gmail.com');
    expect((await chat.lastBot())?.text).toContain('Please give your work email, not a personal one.');
    await chat.say('bob@acme.io');
    await chat.say('3');
    expect((await chat.lastBot())?.text).toBe('Thanks! 3 seats come to 36 EUR a month; we will write to bob@acme.io.');
    await screenshot(page, 'mounted-express-example');
    expect(loaded).toEqual(expect.arrayContaining(['200 /chat/widget.js', '200 /chat/widget-socket.js']));
    expect(failed.filter((f) => !f.endsWith('/favicon.ico'))).toEqual([]);
    await page.close();
  });

  it('the demo page and the operator console work under /support/chat', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    const failed: string[] = [];
    page.on('response', (r) => r.status() >= 400 && failed.push(`${r.status()} ${new URL(r.url()).pathname}`));
    await page.goto(`${consoleUrl}/admin`);
    await page.getByLabel('Admin key').fill(ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('#connection.live').waitFor();
    await page.goto(`${consoleUrl}/`);
    const chat = new ChatDriver(page);
    // the demo's own REST call (the flow list) goes under the mount too
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#flow option')?.value === 'flow.sales');
    await page.locator('#open').click();
    await page.waitForSelector('questline-chat .msg.bot');
    // and its embed snippet names the widget there
    expect(await page.evaluate(() => (globalThis as any).document.body.textContent)).toContain(`${consoleUrl}/widget.js`);
    expect((await chat.lastBot())?.text.length).toBeGreaterThan(0);
    expect(failed.filter((f) => !f.endsWith('/favicon.ico'))).toEqual([]);
    await page.close();
  });
});
