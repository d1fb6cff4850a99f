/**
 * A visitor buying LED lights for a school gym, through Acme's sales flow
 * (lighting pack + Acme's overlay): twelve messages, the conversation
 * completes on the last one, which confirms the review of the answers. Worded the way people type (numbers with units,
 * "$25k", a skipped optional question). Shared by the e2e tests and bench:server.
 */
export const ACME_SALES_SCRIPT = [
  'Hi, I want LED lights for a basketball court',
  'about 420 m2',
  'No lights yet',
  '4',
  '12',
  'skip',
  '$25k',
  'within 3 months',
  "I'm Ann Lee",
  'Northside High School',
  'ann@northside.edu',
  'yes',
] as const;
