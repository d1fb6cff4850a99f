import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPayload, verifySignature } from '../../server/delivery/signature.ts';

const SECRET = 'whsec_test_0123456789';
const BODY = '{"event":"intake.completed","answers":{"email":"ann@acme.example"}}';
const TS = '1768471200';
/** The receiver's clock when the signature arrives (within the default tolerance). */
const AT = { now: Number(TS) * 1000 + 1_000 };

describe('webhook signatures', () => {
  it('is sha256= and the hex HMAC-SHA256 of "<timestamp>.<body>" with the tenant secret', () => {
    const hex = createHmac('sha256', SECRET).update(`${TS}.${BODY}`).digest('hex');
    expect(signPayload(SECRET, TS, BODY)).toBe(`sha256=${hex}`);
  });

  it('verifies a genuine signature, also in upper case and with surrounding spaces', () => {
    const header = signPayload(SECRET, TS, BODY);
    expect(verifySignature(SECRET, TS, BODY, header, AT)).toBe(true);
    expect(verifySignature(SECRET, Number(TS), BODY, ` sha256=${header.slice(7).toUpperCase()} `, AT)).toBe(true);
  });

  it('rejects a changed body, a changed timestamp, another secret and malformed headers', () => {
    const header = signPayload(SECRET, TS, BODY);
    expect(verifySignature(SECRET, TS, BODY.replace('ann', 'eve'), header, AT)).toBe(false);
    expect(verifySignature(SECRET, '1768471201', BODY, header, AT)).toBe(false);
    expect(verifySignature('whsec_other_secret', TS, BODY, header, AT)).toBe(false);
    for (const bad of [undefined, null, '', 'sha256=', header.slice(7), `sha1=${header.slice(7)}`, header.slice(0, -2), `${header}00`, 'sha256=' + 'z'.repeat(64)]) {
      expect(verifySignature(SECRET, TS, BODY, bad, AT)).toBe(false);
    }
    expect(verifySignature(SECRET, 'yesterday', BODY, signPayload(SECRET, 'yesterday', BODY), AT)).toBe(false);
  });

  it('rejects a timestamp more than 5 minutes off by default, unless the tolerance is turned off', () => {
    const header = signPayload(SECRET, TS, BODY);
    const at = Number(TS) * 1000;
    expect(verifySignature(SECRET, TS, BODY, header, { now: at + 299_000 })).toBe(true);
    expect(verifySignature(SECRET, TS, BODY, header, { now: at + 301_000 })).toBe(false);
    expect(verifySignature(SECRET, TS, BODY, header)).toBe(false);
    expect(verifySignature(SECRET, TS, BODY, header, { toleranceSeconds: Infinity })).toBe(true);
  });

  it('rejects a timestamp outside the tolerance given', () => {
    const header = signPayload(SECRET, TS, BODY);
    const at = Number(TS) * 1000;
    expect(verifySignature(SECRET, TS, BODY, header, { toleranceSeconds: 300, now: at + 299_000 })).toBe(true);
    expect(verifySignature(SECRET, TS, BODY, header, { toleranceSeconds: 300, now: at + 301_000 })).toBe(false);
    expect(verifySignature(SECRET, TS, BODY, header, { toleranceSeconds: 300, now: at - 301_000 })).toBe(false);
  });
});
