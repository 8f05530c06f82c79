// Mixed content: the URLs an element of an HTTPS page loads or submits over plain http://, which
// browsers block or warn about. Read from the attributes parseHtml (html.ts) collects per element.
/**
 * Attributes whose URL an HTTPS page loads or navigates to, which browsers block or warn about over
 * http:// (the Mixed Content spec's blockable and upgradeable requests, plus form submission).
 */
const URL_ATTRIBUTES: Record<string, readonly string[]> = {
  link: ['href'], // stylesheets only: see insecureUrls
  script: ['src'],
  img: ['src', 'srcset'],
  source: ['src', 'srcset'],
  iframe: ['src'],
  frame: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  track: ['src'],
  embed: ['src'],
  object: ['data'],
  form: ['action'],
  input: ['src', 'formaction'],
  button: ['formaction'],
};

/** The http:// URLs among an element's loaded or submitted URLs (srcset lists several). */
export function insecureUrls(tag: string, attrs: Record<string, string>): string[] {
  if (tag === 'link' && (attrs.rel ?? '').toLowerCase() !== 'stylesheet') return [];
  const urls: string[] = [];
  for (const attribute of URL_ATTRIBUTES[tag] ?? []) {
    const value = attrs[attribute];
    if (!value) continue;
    const candidates =
      attribute === 'srcset' ? value.split(',').map((entry) => entry.trim().split(/\s+/)[0] ?? '') : [value.trim()];
    for (const url of candidates) if (/^http:\/\//i.test(url)) urls.push(url);
  }
  return urls;
}
