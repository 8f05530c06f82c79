// The consent screen of the OAuth authorization server (issue 12): oidc-provider sends the browser
// here for each authorization; a signed-in member sees the client, the MCP server it wants a token
// for, the workspace and the scopes, and allows (a grant for that one resource, in that workspace)
// or denies. Not signed in: to the sign-in page and back.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Hono } from 'hono';
import { SCOPES, type Scope } from '../../contract/index.ts';
import type { AppContext, AppEnv, ServiceDeps } from '../context.ts';
import { messagePage, oauthConsentPage } from '../dashboard/account-pages.ts';
import { accountIdOf } from '../oauth/provider.ts';
import { field, formHeaders, formOf, refusedForm } from './account.ts';

const originOf = (uri: string): string[] => {
  try {
    return [new URL(uri).origin];
  } catch {
    return [];
  }
};

export function oauthConsentRoutes({ sessions, oauth }: ServiceDeps) {
  const app = new Hono<AppEnv>();
  const node = (c: AppContext) => [c.env.incoming as IncomingMessage, c.env.outgoing as ServerResponse] as const;
  const gone = (c: AppContext) =>
    c.html(
      messagePage('This request has expired', 'Start again from the application that sent you here.'),
      400,
      formHeaders(),
    );

  async function details(c: AppContext) {
    const provider = await oauth();
    const [req, res] = node(c);
    try {
      const interaction = await provider.interactionDetails(req, res);
      // The uid in the path must be the browser's own interaction (its cookie), never another's.
      if (interaction.uid !== c.req.param('uid')) return undefined;
      const client = await provider.Client.find(String(interaction.params.client_id));
      return client ? { provider, interaction, client } : undefined;
    } catch {
      return undefined;
    }
  }

  const requested = (scope: unknown): Scope[] =>
    String(scope ?? '')
      .split(' ')
      .filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));

  app.get('/:uid', async (c) => {
    const found = await details(c);
    if (!found) return gone(c);
    const who = await sessions.read(c);
    if (!who) return c.redirect(`/sign-in?next=${encodeURIComponent(c.req.path)}`, 303);
    if (!who.current)
      return c.html(messagePage('No workspace', 'You do not belong to a workspace.'), 403, formHeaders());
    const { interaction, client } = found;
    const scopes = requested(interaction.params.scope);
    return c.html(
      oauthConsentPage({
        who,
        csrf: sessions.csrfToken(c),
        uid: interaction.uid,
        clientName: client.clientName ?? String(client.clientId),
        // A client known by its metadata document is named by whoever serves that URL: show it.
        metadataDocument: (client as { clientIdMetadataDocument?: boolean }).clientIdMetadataDocument
          ? String(client.clientId)
          : undefined,
        redirectUri: String(interaction.params.redirect_uri ?? ''),
        resource: String(interaction.params.resource ?? ''),
        scopes: scopes.length > 0 ? scopes : SCOPES,
      }),
      200,
      // The answer to the form ends at the client's redirect address: the policy must let it go there.
      formHeaders({ formAction: originOf(String(interaction.params.redirect_uri ?? '')) }),
    );
  });

  app.post('/:uid', async (c) => {
    const form = await formOf(c);
    if (!sessions.csrfValid(c, form.csrf)) return refusedForm(c);
    const found = await details(c);
    if (!found) return gone(c);
    const who = await sessions.read(c);
    if (!who?.current) return c.redirect(`/sign-in?next=${encodeURIComponent(c.req.path)}`, 303);
    const { provider, interaction, client } = found;
    const [req, res] = node(c);
    if (field(form, 'decision') !== 'allow') {
      const to = await provider.interactionResult(req, res, {
        error: 'access_denied',
        error_description: 'the person denied the request',
      });
      return c.redirect(to, 303);
    }
    const accountId = accountIdOf(who.user.id, who.current.organization.id);
    const grant = new provider.Grant({ accountId, clientId: String(client.clientId) });
    const scopes = requested(interaction.params.scope);
    const resource = String(interaction.params.resource ?? '');
    const granted = (scopes.length > 0 ? scopes : SCOPES).join(' ');
    if (resource) grant.addResourceScope(resource, granted);
    // The same names are authorization-server scopes too (see provider.ts), granted alike.
    const offline = String(interaction.params.scope ?? '')
      .split(' ')
      .includes('offline_access');
    grant.addOIDCScope(offline ? `${granted} offline_access` : granted);
    const grantId = await grant.save();
    const to = await provider.interactionResult(
      req,
      res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    return c.redirect(to, 303);
  });

  return app;
}
