// A finding's identity across runs (issue 26): `findingId` is per run (spec 2.5), so the same defect
// gets a new id in every run; its fingerprint stays equal while the defect is there. A finding is
// one check's verdict on the site, so its fingerprint is the check and the site; each page and each
// offending element in its evidence has its own, from the check, the normalised page address and
// what the element is: its start tag's name, naming attributes and classes. Not its selector: a run
// and a recheck, axe and the static checks, the served and the rendered page write different ones
// for the same element. A run can
// then say which defects are new, which persist and which it no longer found.
import { createHash } from 'node:crypto';

const VERSION = 'v1';
const HEX = 16;

const digest = (parts: readonly string[]) =>
  `fp_${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, HEX)}`;

/** The site a run audits, as one key: lowercase host without `www.`, and the port when not the default. */
export function siteScope(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname.toLowerCase().replace(/^www\./, '');
    return parsed.port ? `${host}:${parsed.port}` : host;
  } catch {
    return url.toLowerCase();
  }
}

/** Query parameters that carry a visit, not a page (campaign tags, click ids). */
const VISIT_PARAMS = new Set(['gclid', 'fbclid', 'msclkid', 'dclid', 'yclid', 'mc_cid', 'mc_eid', '_ga', '_gl']);

/**
 * A page as one key: site scope, the path with one trailing slash dropped, and the query sorted
 * without visit parameters; the fragment is not the page.
 */
export function pageKey(url: string): string {
  try {
    const parsed = new URL(url);
    let path = parsed.pathname || '/';
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const params = [...parsed.searchParams]
      .filter(([name]) => !VISIT_PARAMS.has(name.toLowerCase()) && !name.toLowerCase().startsWith('utm_'))
      .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
    const query = params.length > 0 ? `?${new URLSearchParams(params).toString()}` : '';
    return `${siteScope(url)}${path}${query}`;
  } catch {
    return url;
  }
}

/** A name a build or framework made up (`ember123`, `:r1:`, `css-1x7k2ab`): it changes between builds. */
export function generatedName(name: string): boolean {
  if (name.includes(':')) return true;
  if (/^(css|sc|jsx|emotion|styled|svelte)-/i.test(name)) return true;
  let digits = 0;
  for (const c of name) if (c >= '0' && c <= '9') digits++;
  return digits >= 3;
}

/** The attributes that say which element it is, not how it looks or what the build stamped on it. */
const NAMING_ATTRIBUTES = new Set(['id', 'name', 'type', 'role', 'href', 'src', 'for', 'action', 'method', 'rel']);

/**
 * What an element is, from its start tag as evidence carries it (`<img class="x" src="/a.png">`):
 * its tag, naming attributes and classes (not those a build made up), sorted, addresses without
 * their query. One pass over the
 * bounded snippet; page text, never a pattern that can backtrack.
 */
export function elementShape(snippet: string): string {
  const text = snippet.trim();
  if (!text.startsWith('<')) return text.slice(0, 200);
  let i = 1;
  const nameEnd = () => {
    while (i < text.length && !' \t\n\r\f/>="\''.includes(text[i] as string)) i++;
  };
  const skipSpace = () => {
    while (i < text.length && ' \t\n\r\f/'.includes(text[i] as string)) i++;
  };
  let start = i;
  nameEnd();
  const tag = text.slice(start, i).toLowerCase();
  const kept: string[] = [];
  while (i < text.length && text[i] !== '>') {
    skipSpace();
    if (text[i] === '>' || i >= text.length) break;
    start = i;
    nameEnd();
    if (i === start) {
      i++;
      continue;
    }
    const name = text.slice(start, i).toLowerCase();
    let value = '';
    skipSpace();
    if (text[i] === '=') {
      i++;
      while (text[i] === ' ') i++;
      const quote = text[i];
      if (quote === '"' || quote === "'") {
        const close = text.indexOf(quote, i + 1);
        const end = close < 0 ? text.length : close;
        value = text.slice(i + 1, end);
        i = end + 1;
      } else {
        start = i;
        while (i < text.length && !' \t\n\r\f>'.includes(text[i] as string)) i++;
        value = text.slice(start, i);
      }
    }
    if (name === 'class') {
      const classes = value.split(/[ \t\n\r\f]+/).filter((c) => c !== '' && !generatedName(c));
      if (classes.length > 0) kept.push(`class=${[...new Set(classes)].sort().join('.')}`);
      continue;
    }
    if (!NAMING_ATTRIBUTES.has(name) || (name === 'id' && generatedName(value))) continue;
    const address = name === 'href' || name === 'src' || name === 'action';
    kept.push(`${name}=${address ? (value.split('?', 1)[0] as string) : value}`);
  }
  return `${tag}[${kept.sort().join(' ')}]`;
}

/** A finding: its check on the site. */
export function findingFingerprint(checkId: string, startUrl: string): string {
  return digest([VERSION, 'finding', checkId, siteScope(startUrl)]);
}

/** A page (or file) a finding names, with no element: the check on that page. */
export function pageFingerprint(checkId: string, url: string): string {
  return digest([VERSION, 'page', checkId, pageKey(url)]);
}

/** An offending element on a page: what it is, wherever a selector says it is. */
export function elementFingerprint(checkId: string, url: string, element: { snippet: string }): string {
  return digest([VERSION, 'element', checkId, pageKey(url), elementShape(element.snippet)]);
}
