// spec 6.4: the verify helper a receiver imports from `siteaudit/webhooks`, checked against an
// HMAC computed here independently, and the package export that a receiver's code resolves.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  signDelivery,
  verifyWebhook,
  type WebhookVerificationCode,
  WebhookVerificationError,
} from '../../src/webhooks.ts';

const SECRET = 'whsec_test_0123456789abcdef';
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const T = NOW / 1000;
const body = JSON.stringify({
  id: 'evt_0192f0c4a1b27c3d',
  type: 'run.completed',
  createdAt: '2026-11-23T12:00:00.000Z',
  data: { runId: '0192f0c4-a1b2-7c3d-8e4f-0123456789ab' },
});
/** The signature as spec 6.4 defines it, computed without the helper. */
const independent = (secret: string, t: number, raw: string) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;

const refusal = (run: () => unknown): WebhookVerificationCode | undefined => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).code;
  }
  return undefined;
};

describe('signing and verifying a delivery', () => {
  it('signs exactly as spec 6.4 says', () => {
    expect(signDelivery(SECRET, body, T)).toBe(independent(SECRET, T, body));
    expect(signDelivery(SECRET, body, T)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('accepts a signature made independently, from a string or the raw bytes', () => {
    const header = independent(SECRET, T, body);
    expect(verifyWebhook({ secret: SECRET, header, body, now: NOW }).id).toBe('evt_0192f0c4a1b27c3d');
    expect(verifyWebhook({ secret: SECRET, header, body: Buffer.from(body), now: NOW }).type).toBe('run.completed');
  });

  it('accepts either secret during a rotation', () => {
    const header = independent('whsec_old', T, body);
    expect(verifyWebhook({ secret: ['whsec_new', 'whsec_old'], header, body, now: NOW }).type).toBe('run.completed');
  });

  it.each([
    ['no header', undefined, 'malformed_header'],
    ['two v1 values', `${independent(SECRET, T, body)},v1=${'0'.repeat(64)}`, 'malformed_header'],
    ['upper-case hex', independent(SECRET, T, body).toUpperCase(), 'malformed_header'],
    ['a short signature', `t=${T},v1=abc`, 'malformed_header'],
    ['a timestamp 301 s old', independent(SECRET, T - 301, body), 'stale_timestamp'],
    ['a timestamp 301 s ahead', independent(SECRET, T + 301, body), 'stale_timestamp'],
    ['another secret', independent('whsec_other', T, body), 'bad_signature'],
    ['a changed body', independent(SECRET, T, `${body} `), 'bad_signature'],
    ['a changed timestamp', independent(SECRET, T, body).replace(`t=${T}`, `t=${T + 1}`), 'bad_signature'],
  ])('refuses %s', (_what, header, code) => {
    expect(refusal(() => verifyWebhook({ secret: SECRET, header, body, now: NOW }))).toBe(code);
  });

  it('accepts the edge of the tolerance and refuses a signed body that is not an event', () => {
    expect(verifyWebhook({ secret: SECRET, header: independent(SECRET, T - 300, body), body, now: NOW }).id).toMatch(
      /^evt_/,
    );
    const junk = '{"hello":"world"}';
    expect(
      refusal(() => verifyWebhook({ secret: SECRET, header: independent(SECRET, T, junk), body: junk, now: NOW })),
    ).toBe('invalid_body');
  });

  it('is what `siteaudit/webhooks` exports to a receiver', async () => {
    const specifier = 'siteaudit/webhooks';
    const published = (await import(specifier)) as typeof import('../../src/webhooks.ts');
    const event = published.verifyWebhook({ secret: SECRET, header: independent(SECRET, T, body), body, now: NOW });
    expect(event.id).toBe('evt_0192f0c4a1b27c3d');
    expect(new published.WebhookVerificationError('bad_signature', 'x').code).toBe('bad_signature');
  });
});
