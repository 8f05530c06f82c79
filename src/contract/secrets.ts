// What an API key looks like (svc_ and its secret characters), and an OAuth code or token of the
// service's authorization server (oauth_ and its characters), so that every log cuts one to the
// prefix the API shows (spec 5.2.1), whatever carried it in: a path, a header, a tool name.
const KEY_LIKE = /((?:svc|oauth)_[A-Za-z0-9_-]{8})[A-Za-z0-9_-]*/gi;

export function maskKeys(text: string): string {
  return text.replace(KEY_LIKE, '$1…');
}
