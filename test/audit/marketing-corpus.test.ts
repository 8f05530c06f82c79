// Marketing findings a site owner agrees with (issue 25, item 8): each folder of
// test/fixtures/marketing-corpus reproduces a real site's shape (an art blog, documentation sites,
// an open-source portal, shops and businesses writing in Japanese, German, Chinese, French and
// Spanish), and truth.json says by hand what kind of site it is and which marketing concerns it
// really fails. Every site is audited through the engine on its own loopback origin; per concern,
// precision must stay at or above 0.95 and recall at or above 0.9, and every finding carries evidence.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import type { MarketingSignalDetails } from '../../src/audit/products/marketing-signal.ts';
import { concernFigures } from '../support/concern-figures.ts';
import { type FixtureSite, startFixtureSite } from '../support/fixture-site.ts';

const CORPUS = new URL('../fixtures/marketing-corpus/', import.meta.url);
interface SiteTruth {
  pattern: string;
  kind: string;
  routes: Record<string, string>;
  fails: string[];
  trackers?: string[];
}
const truth = JSON.parse(readFileSync(new URL('truth.json', CORPUS), 'utf8')) as {
  concerns: string[];
  sites: Record<string, SiteTruth>;
};
const siteNames = Object.keys(truth.sites);
const MIN_PRECISION = 0.95;
const MIN_RECALL = 0.9;

const servers: FixtureSite[] = [];
const outcomes = new Map<string, AuditOutcome<MarketingSignalDetails>>();
/** Per site, the concerns the engine reports as findings (what the owner reads). */
const said = new Map<string, Set<string>>();

beforeAll(async () => {
  for (const name of siteNames) {
    const site = truth.sites[name] as SiteTruth;
    const routes = Object.fromEntries(
      Object.entries(site.routes).map(([path, file]) => [
        path,
        { body: readFileSync(new URL(`${name}/${file}`, CORPUS), 'utf8') },
      ]),
    );
    const server = await startFixtureSite(routes);
    servers.push(server);
    const outcome = (await runAudit(
      'marketing_signal',
      { url: `${server.origin}/`, local: false },
      { allowPrivate: true, pageBudget: 8 },
    )) as AuditOutcome<MarketingSignalDetails>;
    outcomes.set(name, outcome);
    // A finding that took in another check's (one defect, one finding) says that check's concern too.
    said.set(
      name,
      new Set(
        outcome.findings.filter((f) => f.severity !== 'info').flatMap((f) => [f.checkId, ...(f.alsoChecks ?? [])]),
      ),
    );
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('the marketing corpus', () => {
  it.each(truth.concerns)('judges %s with the precision and recall the issue asks', (concern) => {
    const figures = concernFigures(
      siteNames,
      (name) => truth.sites[name]?.fails.includes(concern) ?? false,
      (name) => said.get(name)?.has(concern) ?? false,
    );
    const why = figures.wrong.join('; ');
    expect(figures.failing, `${concern} has no failing site in the corpus`).toBeGreaterThan(0);
    expect(figures.precision, why).toBeGreaterThanOrEqual(MIN_PRECISION);
    expect(figures.recall, why).toBeGreaterThanOrEqual(MIN_RECALL);
  });

  it.each(siteNames)('reads %s as the kind of site it is, and says so', (name) => {
    const outcome = outcomes.get(name) as AuditOutcome<MarketingSignalDetails>;
    expect(outcome.details.siteKind?.kind).toBe(truth.sites[name]?.kind);
    expect(outcome.details.siteKind?.signals.length).toBeGreaterThan(0);
  });

  it('gives every marketing finding evidence: the element or the text it judged', () => {
    const bare = [...outcomes].flatMap(([name, outcome]) =>
      outcome.findings.filter((f) => f.evidence.length === 0).map((f) => `${name}: ${f.checkId}`),
    );
    expect(bare).toEqual([]);
  });

  it('names every tracker the consent finding is about, with the script elements as evidence', () => {
    for (const [name, site] of Object.entries(truth.sites)) {
      if (!site.trackers) continue;
      const finding = outcomes.get(name)?.findings.find((f) => f.checkId === 'mk-consent-before-tracking');
      for (const tracker of site.trackers) expect(finding?.detail, name).toContain(tracker);
      expect(finding?.detail, name).not.toContain('()');
      const snippets = finding?.evidence.flatMap((e) => e.elements ?? []).map((e) => e.snippet) ?? [];
      expect(snippets.length, name).toBeGreaterThan(0);
      expect(
        snippets.every((s) => s.startsWith('<script')),
        name,
      ).toBe(true);
    }
  });
});
