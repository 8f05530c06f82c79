// Contact reachability (issue 10): a business whose every page links a contact page that shows its
// phone number was told "Visitors cannot see how to reach the business" (high).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit } from '../../src/audit/index.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const page = (title: string, body: string) =>
  html(
    `<title>${title}</title>`,
    `<main><h1>${title}</h1><p>${'Fresh bread every morning. '.repeat(20)}</p>${body}</main>`,
  );

let reachable: FixtureSite;
let silent: FixtureSite;
beforeAll(async () => {
  reachable = await startFixtureSite({
    '/': { body: page('Bakery in Springfield', '<footer><a href="/contact">Contact</a></footer>') },
    '/contact': { body: page('Contact', '<p>Call us: 0521 123456, Mon to Sat.</p>') },
  });
  silent = await startFixtureSite({
    '/': { body: page('Bakery', '<footer><a href="/about">About</a></footer>') },
    '/about': { body: page('About', '<p>Since 1952, posted 2024-01-15.</p>') },
  });
});
afterAll(async () => {
  await reachable?.close();
  await silent?.close();
});

const contactRow = async (site: FixtureSite) => {
  const outcome = await runAudit('marketing_signal', { url: `${site.origin}/`, local: false }, { allowPrivate: true });
  return outcome.checks.find((c) => c.id === 'mk-contact-paths');
};

describe('how visitors reach the business', () => {
  it('counts a phone number written on a linked contact page', async () => {
    const row = await contactRow(reachable);
    expect(row?.status).toBe('pass');
    expect(row?.detail).toContain('a phone number or email written on 1 page(s)');
  });

  it('still says so when no page shows a way to reach it', async () => {
    expect((await contactRow(silent))?.status).toBe('fail');
  });
});
