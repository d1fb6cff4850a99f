// Whether the tests run under CI: tests that need a system program (Chromium,
// redis-server) skip with a note locally but fail under CI, which must never
// skip them silently.

/** Whether we run under CI (`CI` set to anything but empty, 0 or false). */
export function inCi(): boolean {
  const ci = (process.env.CI ?? '').trim().toLowerCase();
  return ci !== '' && ci !== '0' && ci !== 'false';
}
