// The tracking checks' verify lines are made from the lists the checks read (issue 25: they listed
// the common tools by hand and drifted from trackers.ts). Each line is run with bash against a
// loopback page per tool: every tracker, consent manager and tracking cookie the engine knows is
// shown by its check's line, and a page with none of them shows nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { citationById } from '../../src/audit/catalogue.ts';
import { TRACKING_COOKIE, TRACKING_COOKIE_PATTERNS } from '../../src/audit/checks/marketing-signals.ts';
import { CONSENT_MANAGERS } from '../../src/audit/consent-managers.ts';
import { TRACKERS, type TrackerKind } from '../../src/audit/trackers.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { createVerifyEnv, type VerifyEnv } from '../support/verify-env.ts';

const CHECK_OF: Record<TrackerKind, string> = {
  analytics: 'mk-analytics',
  tag_manager: 'mk-analytics',
  marketing_automation: 'mk-analytics',
  advertising: 'mk-ad-pixels',
  session_recording: 'mk-experimentation-tools',
  experimentation: 'mk-experimentation-tools',
};

/** A script element that loads (or installs) the tool, the way its own snippet writes it. */
function scriptOf(mark: string, inline: boolean): string {
  return inline ? `<script>${mark}</script>` : `<script async src=https://cdn.example/${mark}></script>`;
}

const page = (head: string) => html(`<title>Shop</title>${head}`, '<main><h1>Mugs</h1><p>Stoneware.</p></main>');

let site: FixtureSite;
let env: VerifyEnv;
const paths: Array<{ path: string; check: string; what: string }> = [];

beforeAll(async () => {
  const routes: Record<string, { body: string; headers?: Record<string, string | string[]> }> = {
    '/none': { body: page('') },
  };
  TRACKERS.forEach((tracker, i) => {
    // GA4 is named by its id in a Google tag; its line finds the tag (idContext).
    const [mark, inline] = tracker.src[0]
      ? [tracker.src[0], false]
      : tracker.inline[0]
        ? [tracker.inline[0], true]
        : [`${tracker.idContext?.[0]}/gtag/js?id=G-AB12CD34`, false];
    routes[`/t${i}`] = { body: page(scriptOf(mark, inline)) };
    paths.push({ path: `/t${i}`, check: CHECK_OF[tracker.kind], what: tracker.name });
  });
  CONSENT_MANAGERS.forEach((manager, i) => {
    routes[`/c${i}`] = { body: page(scriptOf(`${manager.marks[0]}/banner.js`, false)) };
    paths.push({ path: `/c${i}`, check: 'mk-consent-before-tracking', what: manager.name });
  });
  TRACKING_COOKIE_PATTERNS.forEach((pattern, i) => {
    // A name the pattern stands for: each class filled with one character.
    const name = pattern.replaceAll(/\[[^\]]*\][*+]?/g, (cls) => (cls.startsWith('[.]') ? '.' : 'x'));
    expect(TRACKING_COOKIE.test(name), pattern).toBe(true);
    routes[`/k${i}`] = { headers: { 'set-cookie': `${name}=1; Path=/` }, body: page('') };
    paths.push({ path: `/k${i}`, check: 'mk-no-tracking-cookies-on-first-response', what: name });
  });
  site = await startFixtureSite(routes);
  env = createVerifyEnv();
});

afterAll(async () => {
  env?.close();
  await site?.close();
});

const line = (check: string, path: string) => citationById(check, { url: `${site.origin}${path}` })?.verify ?? '';

describe('the tracking checks’ verify lines', () => {
  it('read the same tracking cookie names as the check', () => {
    expect(TRACKING_COOKIE.source).toBe(`^(${TRACKING_COOKIE_PATTERNS.join('|')})$`);
  });

  it('show every tool and cookie the engine recognises', async () => {
    const missed: string[] = [];
    for (const { path, check, what } of paths) {
      const result = await env.run(line(check, path));
      if (result.stdout.trim() === '') missed.push(`${check}: ${what}`);
    }
    expect(missed).toEqual([]);
  }, 120_000);

  it('show nothing on a page without any', async () => {
    const checks = new Set(paths.map((p) => p.check));
    for (const check of checks) {
      const result = await env.run(line(check, '/none'));
      expect(result.stdout, check).toBe('');
    }
  }, 60_000);
});
