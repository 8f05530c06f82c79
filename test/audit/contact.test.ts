// Contact reachability (issue 10): a business whose every page links a contact page that shows its
// phone number was told "Visitors cannot see how to reach the business" (high). Issue 25: a site
// linking お問い合わせ on every page got the same finding while "No path to get in touch" passed
// on it, and a header mailto: link named only by its title went unseen. One detector now answers
// both checks, in the languages sites are written in, with tel: and mailto: found anywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

const page = (title: string, body: string, lang = 'en') =>
  html(
    `<title>${title}</title>`,
    `<main><h1>${title}</h1><p>${'Fresh bread every morning. '.repeat(20)}</p>${body}</main>`,
    lang,
  );

const sites: FixtureSite[] = [];
const serve = async (routes: Record<string, { body: string }>) => {
  const site = await startFixtureSite(routes);
  sites.push(site);
  return site;
};
afterAll(async () => {
  await Promise.all(sites.map((s) => s.close()));
});

const audit = async (site: FixtureSite) =>
  runAudit('marketing_signal', { url: `${site.origin}/`, local: false }, { allowPrivate: true });
const row = (outcome: AuditOutcome<unknown>, id: string) => outcome.checks.find((c) => c.id === id);

let reachable: FixtureSite;
let silent: FixtureSite;
beforeAll(async () => {
  reachable = await serve({
    '/': { body: page('Bakery in Springfield', '<footer><a href="/contact">Contact</a></footer>') },
    '/contact': { body: page('Contact', '<p>Call us: 0521 123456, Mon to Sat.</p>') },
  });
  silent = await serve({
    '/': { body: page('Bakery', '<footer><a href="/about">About</a></footer>') },
    '/about': { body: page('About', '<p>Since 1952, posted 2024-01-15.</p>') },
  });
});

describe('how visitors reach the business', () => {
  it('counts a phone number written on a linked contact page', async () => {
    const contact = row(await audit(reachable), 'mk-contact-paths');
    expect(contact?.status).toBe('pass');
    expect(contact?.detail).toContain(`a phone number or email written on ${reachable.origin}/contact`);
  });

  it('still says so when no page shows a way to reach it, with what it read as evidence', async () => {
    const outcome = await audit(silent);
    expect(row(outcome, 'mk-contact-paths')?.status).toBe('fail');
    expect(row(outcome, 'mk-contact-or-booking')?.status).toBe('fail');
    const finding = outcome.findings.find((f) => f.checkId === 'mk-contact-paths');
    expect(finding?.evidence).toHaveLength(2);
    for (const evidence of finding?.evidence ?? []) {
      expect(evidence?.summary).toMatch(/^read \d+ link\(s\), 0 form\(s\), the scripts and the text of 2 page\(s\)/);
      expect(evidence?.summary).toContain('declared language: en');
    }
  });

  // Issue 25, "one defect, one finding": with no way at all to reach the business, both contact
  // checks fail on the same absence; the owner reads one finding (the high one), while both rows
  // still count in the score.
  it('gives no way to reach the business as one finding, with both checks’ references', async () => {
    const outcome = await audit(silent);
    const contact = outcome.findings.filter((f) =>
      ['mk-contact-paths', 'mk-contact-or-booking'].some((id) => f.checkId === id || f.alsoChecks?.includes(id)),
    );
    expect(contact.map((f) => [f.checkId, f.severity, f.alsoChecks])).toEqual([
      ['mk-contact-paths', 'high', ['mk-contact-or-booking']],
    ]);
    expect(contact[0]?.title).toBe('Visitors cannot see how to reach the business');
    expect(contact[0]?.detail).toMatch(/page\(s\) read\. Also reported as: No path to get in touch\.$/);
    const references = new Set(contact[0]?.references.map((r) => r.url));
    for (const id of ['mk-contact-paths', 'mk-contact-or-booking'])
      for (const reference of row(outcome, id)?.cite.references ?? []) expect(references).toContain(reference.url);
    expect(outcome.findings.some((f) => f.title === 'No path to get in touch')).toBe(false);
  });

  it('keeps the two contact findings apart when one check passes: a booking link alone', async () => {
    const site = await serve({
      '/': { body: page('Salon', '<footer><a href="https://calendly.com/salon/cut">Book a haircut</a></footer>') },
    });
    const outcome = await audit(site);
    expect(row(outcome, 'mk-contact-or-booking')?.status).toBe('pass');
    const contact = outcome.findings.find((f) => f.checkId === 'mk-contact-paths');
    expect(contact?.severity).toBe('high');
    expect(contact?.alsoChecks).toBeUndefined();
  });

  it('sees お問い合わせ linked on every page, and both contact checks agree', async () => {
    const nav = '<nav><a href="/">ホーム</a> <a href="/お問い合わせ/">お問い合わせ</a></nav>';
    const site = await serve({
      '/': { body: page('精密金属加工のサクラ精工', `${nav}<p>〒 のない会社案内です。</p>`, 'ja') },
      '/%E3%81%8A%E5%95%8F%E3%81%84%E5%90%88%E3%82%8F%E3%81%9B/': {
        body: page(
          'お問い合わせ',
          `${nav}<form method="post" action="/send"><label>お名前<input name="name"></label><label>内容<textarea name="body"></textarea></label><button>送信</button></form>`,
          'ja',
        ),
      },
    });
    const outcome = await audit(site);
    expect(row(outcome, 'mk-contact-paths')?.status).toBe('pass');
    expect(row(outcome, 'mk-contact-paths')?.detail).toContain('“お問い合わせ”');
    expect(row(outcome, 'mk-contact-or-booking')?.status).toBe('pass');
  });

  it('sees a header mailto: link named only by its title', async () => {
    const site = await serve({
      '/': {
        body: page(
          'Fold and Field design studio',
          '<header><a href="/work/">Work</a><a href=" mailto:studio@fold.test" title="Email"><svg aria-hidden="true"></svg></a></header>',
        ),
      },
    });
    const outcome = await audit(site);
    for (const id of ['mk-contact-paths', 'mk-contact-or-booking']) {
      expect(row(outcome, id)?.status, id).toBe('pass');
      expect(row(outcome, id)?.detail, id).toContain('email link: “Email” to “mailto:studio@fold.test”');
    }
  });

  it('finds a mailto: link past the links a page lists, and on elements other than <a>', async () => {
    const many = Array.from({ length: 600 }, (_, i) => `<a href="/p${i}">Product ${i}</a>`).join(' ');
    const site = await serve({
      '/': {
        body: page('A catalogue of many pages', `${many}<map><area href="mailto:shop@many.test" alt="Email"></map>`),
      },
    });
    const outcome = await audit(site);
    expect(row(outcome, 'mk-contact-paths')?.status).toBe('pass');
    expect(row(outcome, 'mk-contact-paths')?.detail).toContain('1 mailto: link(s) in the HTML');
  });

  it.each([
    ['de', 'Kontakt', '/kontakt/'],
    ['fr', 'Nous contacter', '/nous-joindre/'],
    ['es', 'Contáctenos', '/contactenos/'],
    ['zh-CN', '联系我们', '/lianxi/'],
    ['ja', 'お問合せ', '/inquiry/'],
    ['en', 'Get in touch', '/hello/'],
  ])('reads a contact link in %s: %s', async (lang, label, href) => {
    const site = await serve({
      '/': { body: page('Werkstatt', `<footer><a href="${href}">${label}</a></footer>`, lang) },
    });
    const outcome = await audit(site);
    expect(row(outcome, 'mk-contact-paths')?.status).toBe('pass');
    expect(row(outcome, 'mk-contact-or-booking')?.status).toBe('pass');
  });

  it('does not take a search form for a way to get in touch', async () => {
    const site = await serve({
      '/': {
        body: page(
          'Bakery',
          '<form role="search" action="/search"><input type="search" name="q" aria-label="Search"><button>Search</button></form>',
        ),
      },
    });
    expect(row(await audit(site), 'mk-contact-or-booking')?.status).toBe('fail');
  });
});
