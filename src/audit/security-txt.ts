// security.txt as RFC 9116 defines it: fields one per line, Contact (a URI) at least once, Expires
// exactly once as an RFC 3339 date-time, ideally under a year ahead; served over HTTPS. An OpenPGP
// cleartext signature around the fields is allowed.

export interface SecurityTxt {
  contacts: string[];
  expires?: Date;
  /** What breaks the file for a reader, worst first. */
  problems: string[];
  /** Short of the RFC's recommendations, not broken. */
  advice: string[];
}

const YEAR_MS = 365 * 24 * 3600 * 1000;
// RFC 3339 5.6 date-time (as RFC 9116 2.5.5 requires).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export function parseSecurityTxt(body: string, fetchedUrl: string, now: Date): SecurityTxt {
  const fields: Array<[string, string]> = [];
  for (const line of body.split(/\r?\n/)) {
    // `name: value`, the value trimmed and on one line. Trimming the end first keeps the pattern
    // linear: /^([A-Za-z-]+):\s*(.*?)\s*$/ tries every split of a run of white space (cubic).
    const match = /^([A-Za-z-]+):\s*(\S.*)?$/.exec(line.trimEnd());
    if (match) fields.push([(match[1] as string).toLowerCase(), match[2] ?? '']);
  }
  const values = (name: string) => fields.filter(([n]) => n === name).map(([, v]) => v);
  const problems: string[] = [];
  const advice: string[] = [];
  if (!fetchedUrl.startsWith('https:'))
    problems.push(`served over plain HTTP (${fetchedUrl}); RFC 9116 3 requires HTTPS`);
  const contacts = values('contact');
  if (contacts.length === 0) problems.push('no Contact field');
  const notUris = contacts.filter((c) => !/^(mailto:|https:|tel:)\S+$/i.test(c));
  if (notUris.length > 0)
    problems.push(`Contact must be a URI (mailto:, https: or tel:), not ${notUris.map((c) => `"${c}"`).join(', ')}`);
  const expiresValues = values('expires');
  let expires: Date | undefined;
  if (expiresValues.length === 0) problems.push('no Expires field');
  else if (expiresValues.length > 1) problems.push('Expires appears more than once');
  else {
    const text = expiresValues[0] as string;
    expires = new Date(text);
    if (!DATE_TIME.test(text) || Number.isNaN(expires.getTime())) {
      problems.push(`Expires "${text}" is not an RFC 3339 date-time (e.g. 2027-01-31T00:00:00Z)`);
      expires = undefined;
    } else if (expires < now) problems.push(`expired on ${text}`);
    else if (expires.getTime() - now.getTime() > YEAR_MS)
      advice.push(`Expires ${text} is more than a year ahead (RFC 9116 2.5.5 recommends less)`);
  }
  const canonical = values('canonical');
  if (canonical.length > 0 && !canonical.includes(fetchedUrl))
    advice.push(`Canonical (${canonical.join(', ')}) does not list ${fetchedUrl}, where it was found`);
  return { contacts, ...(expires ? { expires } : {}), problems, advice };
}

/** A starter file to review: a contact at the domain, Expires eleven months ahead, its own address. */
export function starterSecurityTxt(domain: string, url: string, now: Date): string {
  const expires = new Date(now.getTime() + (YEAR_MS * 11) / 12);
  expires.setUTCHours(0, 0, 0, 0);
  return [
    `Contact: mailto:security@${domain}`,
    `Expires: ${expires.toISOString().replace('.000Z', 'Z')}`,
    `Canonical: ${url}`,
    'Preferred-Languages: en',
  ].join('\n');
}
