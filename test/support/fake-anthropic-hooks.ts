import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.ts';

/**
 * One fake Anthropic server for a test file: started before, closed after,
 * its request log cleared before each test, which must find no reply left
 * over from the previous one. Returns a getter (the server exists only once
 * `beforeAll` ran).
 */
export function useFakeAnthropic(): () => FakeAnthropic {
  let fake: FakeAnthropic | undefined;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterAll(async () => {
    await fake?.close();
  });
  beforeEach(() => {
    fake!.requests.length = 0;
    expect(fake!.pending()).toBe(0);
  });
  return () => fake!;
}
