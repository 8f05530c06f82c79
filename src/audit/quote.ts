// Text taken from an audited site (a heading, a header value, a DNS record, a cookie name) is quoted
// where the engine puts it into a finding or a check row: “like this”, bounded and on one line, with
// no curly double quote of its own. Readers see a quotation; the MCP server marks exactly these spans
// as untrusted page content (src/mcp/page-content.ts) and shows the engine's own words as written.
export const QUOTE_OPEN = '“';
export const QUOTE_CLOSE = '”';

const MAX_QUOTE = 120;

export function quote(text: string | number | undefined | null, max = MAX_QUOTE): string {
  const clean = String(text ?? '')
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/[“”]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
  const bounded = clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
  return `${QUOTE_OPEN}${bounded}${QUOTE_CLOSE}`;
}

/** Quotes each value and joins them. */
export const quoteAll = (values: readonly (string | number)[], separator = ', ') =>
  values.map((value) => quote(value)).join(separator);
