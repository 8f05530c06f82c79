// A check's citation filled in for one finding: its standards as they are, and its verify line with
// `{url}`, `{origin}`, `{host}` and `{domain}` (the mail domain) as shell words. Each check's citation
// is defined in its spec, beside the check (standards.ts has the builders).

import { axe, type Citation, type Reference } from './standards.ts';

export type { Anchor, Citation, Reference } from './standards.ts';

/** The citation of a check, with `{url}`, `{origin}`, `{host}` and `{domain}` filled in for one finding. */
export function citationFor(
  citation: Citation,
  at: { url: string; domain?: string },
): { references: Reference[]; verify: string } {
  let parsed: URL | undefined;
  try {
    parsed = new URL(at.url);
  } catch {
    parsed = undefined;
  }
  const host = parsed?.hostname ?? '';
  const domain = at.domain ?? host.replace(/^www\./, '');
  // A page's address is the site's text: `/a;reboot` or `$(id)` in a path (and even in a host name)
  // must not run when an agent runs the line. Shell lines get each value as one quoted word; an
  // "Open ..." line puts it in a link, encoded.
  const word = citation.verify.startsWith('Open ') ? encodeURIComponent : shellWord;
  const verify = citation.verify
    .replaceAll('{url}', word(at.url))
    .replaceAll('{origin}', word(parsed?.origin ?? at.url))
    .replaceAll('{host}', word(host))
    .replaceAll('{domain}', word(domain));
  return { references: citation.references, verify };
}

/**
 * The verify line of an axe rule found at run time (checks/rendered.ts): the page's address as one
 * shell word, as every line of this table has it.
 */
export function axeVerify(url: string, rules: string): string {
  return axe(rules).replace('{url}', shellWord(url));
}

/** One shell word whatever the value holds: single-quoted, with each `'` closed, escaped and reopened. */
export function shellWord(value: string): string {
  return /^[\w.:/@%+=,-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}
