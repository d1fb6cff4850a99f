import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { describe, it } from 'vitest';

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

/** Launches headless Chromium with a fresh profile directory. */
export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'questline-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ARGS,
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

/** Whether we run under CI (`CI` set to anything but empty, 0 or false). */
function inCi(): boolean {
  const ci = (process.env.CI ?? '').trim().toLowerCase();
  return ci !== '' && ci !== '0' && ci !== 'false';
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
