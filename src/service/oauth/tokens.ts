// OAuth access tokens as API credentials (issue 12): a token the authorization server issued for one
// of this deployment's MCP resources, to a person who is still a member of the grant's workspace,
// stands for a key of that workspace with the granted scopes. Looked up on every request, so a
// revocation, an expiry or a removed membership applies to the next one.
import type Provider from 'oidc-provider';
import { SCOPES, type Scope } from '../../contract/index.ts';
import type { AuthContext } from '../context.ts';
import type { Store } from '../store/index.ts';
import { parseAccountId, type ResourcePolicy } from './provider.ts';

/** Client names seen, so `whoami` can name the application without a lookup on every request. */
const NAMES_KEPT = 1000;

export function oauthTokenLookup(store: Store, oauth: () => Promise<Provider>, resources: ResourcePolicy) {
  const names = new Map<string, string>();
  async function clientName(provider: Provider, clientId: string): Promise<string> {
    const known = names.get(clientId);
    if (known !== undefined) return known;
    const client = await provider.Client.find(clientId).catch(() => undefined);
    const name = `${String(client?.clientName ?? 'OAuth client').slice(0, 80)} (OAuth client ${clientId.slice(0, 40)})`;
    if (names.size >= NAMES_KEPT) names.clear();
    names.set(clientId, name);
    return name;
  }
  return async (token: string): Promise<AuthContext | undefined> => {
    if (token.length > 512) return undefined;
    const provider = await oauth();
    const found = await provider.AccessToken.find(token).catch(() => undefined);
    if (!found || found.isExpired) return undefined;
    const audience = Array.isArray(found.aud) ? found.aud[0] : found.aud;
    if (typeof audience !== 'string' || !resources(audience)) return undefined;
    const account = parseAccountId(found.accountId);
    if (!account) return undefined;
    const workspace = (await store.accounts.workspaces(account.userId)).find(
      (w) => w.organization.id === account.organizationId,
    );
    if (!workspace) return undefined;
    const scopes = String(found.scope ?? '')
      .split(' ')
      .filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
    const clientId = String(found.clientId);
    return {
      organization: workspace.organization,
      scopes,
      // The grant stands in for a key: rate limits, the audit log and runs name it by this prefix.
      key: {
        id: `oauth:${found.grantId ?? found.jti}`,
        organization_id: workspace.organization.id,
        project_id: null,
        name: await clientName(provider, clientId),
        prefix: `oauth_${clientId.slice(0, 6)}`,
        secret_hash: '',
        secret_ciphertext: '',
        scopes: JSON.stringify(scopes),
        source: 'oauth',
        created_at: new Date((found.iat ?? 0) * 1000).toISOString(),
        revoked_at: null,
        last_used_at: null,
        created_by: account.userId,
      },
    };
  };
}
