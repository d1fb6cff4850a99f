import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    // a hook starts a server, Redis or Chromium: generous under load, never a timing assertion
    hookTimeout: 60_000,
  },
});
