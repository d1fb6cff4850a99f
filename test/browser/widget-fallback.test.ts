import { expect, it } from 'vitest';
import { ALLOW_LOOPBACK_FROM_ROUTED_PAGES, axeViolations, describeBrowser, screenshot, useServerAndBrowser } from '../support/browser.ts';
import { ACME, CLINIC, embedPage, openHostPage } from './widget-driver.ts';

// The structured control the widget offers after a reply to a date, phone,
// number or option question was not understood (client/widget/fallback-input.ts):
// a date picker, a phone field with a country selector, a number field with a
// unit selector; used with the keyboard, labelled, and free text still works.

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

describeBrowser('structured fallback inputs in the widget', () => {
  const suite = useServerAndBrowser({ browserArgs: [ALLOW_LOOPBACK_FROM_ROUTED_PAGES], closePagesAfterEach: true });

  it('after a miss at the date of birth and the phone, offers a date picker and a phone field with a country; keyboard only', async () => {
    const { page, chat, problems } = await openHostPage(suite.browser, '/clinic.html', embedPage(suite.server.url, { key: CLINIC.key, flow: CLINIC.flow }));
    await chat.launcher().click();
    await page.waitForSelector('questline-chat .msg.bot');
    const box = page.locator('questline-chat .fallback');
    await chat.say('Jordan Lee');
    // no miss yet: no control, the question is asked in words only
    expect(await box.isVisible()).toBe(false);
    await chat.say('sometime in the spring');
    await box.waitFor();
    expect(await box.getAttribute('role')).toBe('group');
    expect(await box.getAttribute('aria-label')).toBe('Or choose your answer here');
    const date = page.getByLabel('Date', { exact: true });
    expect(await date.getAttribute('type')).toBe('date');
    expect(await date.getAttribute('max')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await screenshot(page, 'widget-fallback-1-date');
    // the control sits just before the composer in the tab order: Shift+Tab from the textarea reaches its button
    await chat.input().focus();
    await page.keyboard.press('Shift+Tab');
    expect(await chat.focused()).toBe('button.action:Send this answer');
    await page.keyboard.press('Shift+Tab');
    expect(await chat.focused()).toBe('input.date');
    await date.fill('1984-03-27');
    let before = await chat.lastId();
    await page.keyboard.press('Enter');
    await chat.settled(before);
    expect((await chat.messages()).filter((m) => m.role === 'user').at(-1)?.text).toBe('1984-03-27');
    // the age is derived from the date of birth (not asked): on to the sex question, no control after an answer
    expect((await chat.lastBot())?.text).toMatch(/sex/i);
    expect(await box.isVisible()).toBe(false);
    await chat.page.locator('questline-chat .chip', { hasText: /^Male$/ }).click();
    await chat.settled(await chat.lastId() - 1);
    await chat.say('call me maybe');
    const country = page.getByLabel('Country', { exact: true });
    await country.waitFor();
    expect(await country.inputValue()).toBe('+1'); // the session's country (the flow's US)
    await country.selectOption({ label: 'Germany (+49)' });
    await page.getByLabel('Phone number', { exact: true }).fill('030 1234567');
    await screenshot(page, 'widget-fallback-2-phone');
    before = await chat.lastId();
    await page.getByRole('button', { name: 'Send this answer' }).click();
    await chat.settled(before);
    expect((await chat.messages()).filter((m) => m.role === 'user').at(-1)?.text).toBe('+49 30 1234567');
    expect((await chat.lastBot())?.text).toMatch(/insurance/i);
    expect(await chat.focused()).toBe('textarea');
    // the pointer rests where the control's button was, over a new chip: moved away (a hovered chip is tinted) and the line's entrance over
    await page.mouse.move(0, 0);
    await page.waitForTimeout(400);
    await screenshot(page, 'widget-fallback-2b-after-phone');
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('offers a number with a unit selector at an area question, converts what is picked, and "Not sure"/"Skip" at an optional one', async () => {
    const { page, chat, problems } = await openHostPage(suite.browser, '/shop.html', embedPage(suite.server.url, { key: ACME.key, flow: ACME.flow }));
    await chat.launcher().click();
    await page.waitForSelector('questline-chat .msg.bot');
    await chat.say('Hi, I want LED lights for a basketball court');
    await chat.say('quite big really');
    const unit = page.getByLabel('Unit', { exact: true });
    await unit.waitFor();
    expect(await unit.locator('option').allTextContents()).toEqual(expect.arrayContaining(['m²', 'sq ft']));
    await page.getByLabel(/^Number/).fill('4500');
    await unit.selectOption('sq ft');
    await screenshot(page, 'widget-fallback-3-number-unit');
    const before = await chat.lastId();
    await page.getByRole('button', { name: 'Send this answer' }).click();
    await chat.settled(before);
    expect((await chat.messages()).filter((m) => m.role === 'user').at(-1)?.text).toBe('4500 sq ft');
    expect((await chat.messages()).filter((m) => m.role === 'bot').map((m) => m.text).join(' ')).toMatch(/4,500 sq ft/);
    // an option question keeps its chips; after a miss, as the question may be skipped, "Not sure" beside them and one Skip (the chip)
    await chat.chip('No lights yet').waitFor();
    expect(await page.locator('questline-chat .fallback').isVisible()).toBe(false);
    await chat.say('the blue ones');
    await chat.chip('No lights yet').waitFor();
    expect(await page.getByRole('button', { name: 'Not sure' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Skip' }).count()).toBe(1); // not a second Skip beside the chip
    expect(await page.getByRole('button', { name: 'Skip' }).isVisible()).toBe(true);
    await page.mouse.move(0, 0);
    await screenshot(page, 'widget-fallback-4-options');
    await chat.pick('No lights yet');
    await chat.say('4');
    await chat.say('12');
    // an optional date (acme's install date): after a miss, the date picker and "Not sure" / "Skip"
    await chat.say('the usual kind');
    await page.getByRole('button', { name: 'Not sure' }).waitFor();
    expect(await page.getByRole('button', { name: 'Skip' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Date', { exact: true }).getAttribute('min')).toMatch(/^\d{4}-\d{2}-\d{2}$/); // a date that must be ahead
    await page.mouse.move(0, 0);
    await screenshot(page, 'widget-fallback-5-optional-date');
    expect(await axeViolations(page)).toEqual([]);
    const at = await chat.lastId();
    await page.getByRole('button', { name: 'Not sure' }).click();
    await chat.settled(at);
    expect((await chat.messages()).filter((m) => m.role === 'user').at(-1)?.text).toBe('skip');
    expect((await chat.lastBot())?.text).not.toMatch(/working by/);
    expect(problems).toEqual([]);
  });
});
