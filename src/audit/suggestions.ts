// Paste-ready fixes (issue 13): where a fix is text (DNS records, response headers, a policy or
// a starter file), the finding carries it ready to paste, marked as a suggestion to review. Each
// names where it goes; header fixes come once per common server or host.

export type SuggestionFormat =
  | 'dns'
  | 'text'
  | 'nginx'
  | 'apache'
  | 'caddy'
  | 'netlify'
  | 'vercel'
  | 'cloudflare'
  | 'json-ld'
  | 'robots'
  | 'markdown';

export interface Suggestion {
  /** What it is, e.g. "nginx" or "DNS records". */
  label: string;
  /** Where it goes: a file, a configuration block, a DNS zone. */
  target: string;
  format: SuggestionFormat;
  content: string;
}

/** A suggestion's text is bounded, with its lines kept (finding text elsewhere is one line). */
export const SUGGESTION_MAX = 4000;

export const boundSuggestion = (s: Suggestion): Suggestion =>
  s.content.length <= SUGGESTION_MAX ? s : { ...s, content: `${s.content.slice(0, SUGGESTION_MAX - 1)}…` };

export interface DnsRecord {
  /** Fully qualified, without the trailing dot. */
  name: string;
  type: 'TXT' | 'MX' | 'CAA';
  /** TXT text unquoted; MX and CAA in zone-file form ("0 .", "0 issue \"letsencrypt.org\""). */
  value: string;
}

/** Zone-file lines (RFC 1035 5.1), which every DNS host's import and most of their forms accept. */
export function dnsSuggestion(zone: string, records: DnsRecord[]): Suggestion {
  const line = (r: DnsRecord) =>
    `${r.name}.\t3600\tIN\t${r.type}\t${r.type === 'TXT' ? `"${r.value.replaceAll('"', '\\"')}"` : r.value}`;
  return {
    label: 'DNS records',
    target: `the DNS zone of ${zone}`,
    format: 'dns',
    content: records.map(line).join('\n'),
  };
}

export type Header = readonly [name: string, value: string];

/** The same response headers for nginx, Apache, Caddy, Netlify, Vercel and Cloudflare. */
export function headerSuggestions(headers: readonly Header[]): Suggestion[] {
  const quoted = (value: string) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  // Netlify and Cloudflare Pages read the same `_headers` file.
  const headersFile = `/*\n${headers.map(([n, v]) => `  ${n}: ${v}`).join('\n')}`;
  return [
    {
      label: 'nginx',
      target: 'the server block (or http block) of the site',
      format: 'nginx',
      content: headers.map(([n, v]) => `add_header ${n} ${quoted(v)} always;`).join('\n'),
    },
    {
      label: 'Apache',
      target: 'the VirtualHost or .htaccess (mod_headers enabled)',
      format: 'apache',
      content: headers.map(([n, v]) => `Header always set ${n} ${quoted(v)}`).join('\n'),
    },
    {
      label: 'Caddy',
      target: 'the site block of the Caddyfile',
      format: 'caddy',
      content: `header {\n${headers.map(([n, v]) => `\t${n} ${quoted(v)}`).join('\n')}\n}`,
    },
    {
      label: 'Netlify',
      target: 'the _headers file at the publish root',
      format: 'netlify',
      content: headersFile,
    },
    {
      label: 'Vercel',
      target: 'vercel.json at the project root (merge with its "headers")',
      format: 'vercel',
      content: JSON.stringify(
        { headers: [{ source: '/(.*)', headers: headers.map(([key, value]) => ({ key, value })) }] },
        null,
        2,
      ),
    },
    {
      label: 'Cloudflare',
      target: 'a Response Header Transform Rule ("Set static"), or the _headers file on Cloudflare Pages',
      format: 'cloudflare',
      content: headersFile,
    },
  ];
}
