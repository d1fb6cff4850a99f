import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import { inCi } from './ci.ts';
import { startTestServer, type TestServer } from './server.ts';

// Headless Chromium for browser tests, shared by every test/browser suite.
// The system Chromium is used (no Playwright browser download); CI installs
// it in .ci/run. Each launch gets a fresh profile in a temp directory, removed
// on close: Playwright refuses `--user-data-dir` in `launch()`, so the
// profile is passed the supported way, as launchPersistentContext's directory.

/** Where the browser lives; CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Whether the Chromium binary is there and executable. */
export function hasChromium(): boolean {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A running browser with its own throwaway profile. */
export interface TestBrowser {
  context: BrowserContext;
  /** A new tab with the given viewport (1280×900 by default). */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** Closes the browser and deletes the profile. */
  close(): Promise<void>;
}

/**
 * Chromium features that block a page from reaching loopback addresses
 * (Local/Private Network Access). A page served through `page.route` (see
 * `serveHtml`) counts as public, so a widget test's host page could not load
 * the widget from the test server on 127.0.0.1 without turning them off.
 */
export const ALLOW_LOOPBACK_FROM_ROUTED_PAGES = '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights';

/** Launches headless Chromium with a fresh profile directory (`extraArgs` are added to the usual flags). */
export async function launchBrowser(extraArgs: string[] = []): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'questline-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...ARGS, ...extraArgs],
      viewport: { width: 1280, height: 900 },
    });
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
  return {
    context,
    async newPage(viewport = { width: 1280, height: 900 }) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      return page;
    },
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * `describe` for browser suites: skipped (with a note) when Chromium is missing
 * locally, but failing when `CI` is set — CI must never skip them silently.
 */
export function describeBrowser(name: string, fn: () => void): void {
  if (hasChromium()) {
    describe(name, fn);
  } else if (inCi()) {
    describe(name, () => {
      it('has Chromium to run in', () => {
        throw new Error(`${CHROMIUM_PATH} is missing; install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
      });
    });
  } else {
    process.stderr.write(`[browser tests] ${CHROMIUM_PATH} not found: skipping "${name}" (set CI to make this an error)\n`);
    describe.skip(name, fn);
  }
}

// --- helpers for the widget and demo suites ----------------------------------

/** The test server and the browser of a suite (see useServerAndBrowser). */
export interface ServerAndBrowser {
  readonly server: TestServer;
  readonly browser: TestBrowser;
}

/**
 * For a browser suite (call it inside the describe): starts a test server and
 * launches Chromium (with `browserArgs`) before the tests, closes both after
 * them. `closePagesAfterEach` closes every tab after each test, so that a
 * failed test does not leave a widget running that writes to the shared
 * origin's storage.
 */
export function useServerAndBrowser(opts: { browserArgs?: string[]; closePagesAfterEach?: boolean } = {}): ServerAndBrowser {
  let server: TestServer | undefined;
  let browser: TestBrowser | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser(opts.browserArgs);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });
  if (opts.closePagesAfterEach) {
    afterEach(async () => {
      for (const p of browser?.context.pages() ?? []) await p.close();
    });
  }
  return {
    get server() {
      if (!server) throw new Error('the test server is not started (useServerAndBrowser: beforeAll did not run or failed)');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the browser is not launched (useServerAndBrowser: beforeAll did not run or failed)');
      return browser;
    },
  };
}

/** Where browser tests write screenshots (gitignored; look at them). */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

/** Saves a screenshot of the page as test-artifacts/NAME.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/**
 * Answers requests for `url` with `html`, without any network: the page then
 * has that URL's origin (e.g. http://localhost:3000, which the demo tenants
 * allow), so a widget loaded from the test server runs cross-origin, as on a
 * customer's site.
 */
export async function serveHtml(page: Page, url: string, html: string): Promise<void> {
  await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
}

const axeSource = (() => {
  let source: string | undefined;
  return () => (source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
})();

/** One axe-core finding, trimmed for a readable assertion message. */
export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core in the page (open shadow roots included) and returns the
 * violations of the given impacts. The source is evaluated through the
 * DevTools protocol, so the page's CSP does not stand in the way.
 */
export async function axeViolations(page: Page, impacts: string[] = ['serious', 'critical']): Promise<AxeFinding[]> {
  await page.evaluate(axeSource());
  const found = (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  })) as AxeFinding[];
  return found.filter((f) => f.impact !== null && impacts.includes(f.impact));
}
