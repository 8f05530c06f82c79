// Where a webhook endpoint may point (spec 4.12, 6.5.4, issue 11): https, no credentials in the
// URL, and, on a hosted service, not this machine nor a private network. A literal address or a
// local name is refused here; a name is resolved and checked again at every delivery, so a name
// that later resolves inward (DNS rebinding) is refused then.
import { literalHostRefusal } from '../audit/net/addresses.ts';
import { ApiError } from './errors.ts';

const invalid = (message: string) => new ApiError(400, 'validation_failed', message, { details: { field: 'url' } });

/** The URL as stored, or a 400 that says what is wrong with it. */
export function checkEndpointUrl(raw: string, allowLocalTargets: boolean): string {
  const url = new URL(raw);
  if (url.protocol !== 'https:') throw invalid('the endpoint URL must use https');
  if (url.username || url.password) throw invalid('the endpoint URL must not carry a user name or password');
  url.hash = '';
  if (!allowLocalTargets) {
    if (literalHostRefusal(url.hostname))
      throw invalid('the endpoint URL must be on the public internet, not a loopback or private address');
  }
  return url.href;
}
