// whoami: which organization, key, scopes, plan and credits this MCP server acts with.
import { z } from 'zod';
import { untrustedName } from '../src/mcp/page-content.ts';
import { defineTool } from '../src/mcp/tool.ts';

export const whoami = defineTool({
  name: 'whoami',
  title: 'Show the account in use',
  description:
    'Shows the Site Audit organization and API key this server acts with: scopes, plan, credits left and what each audit costs. Call it first when unsure whether audits can be started (a Free plan or zero credits cannot start runs), or when another tool reports a missing scope. Reads only.',
  inputSchema: z.object({}),
  outputSchema: z.object({
    organizationName: z.string(),
    organizationId: z.string(),
    keyPrefix: z.string(),
    keyName: z.string(),
    pinnedProjectId: z.string().optional().describe('set when the key works on this one project only'),
    scopes: z.array(z.string()),
    plan: z.string().describe('free when the organization has no paid plan'),
    creditsRemaining: z.int().optional(),
    monthlyCredits: z.int().optional().describe('credits the plan adds each month'),
    creditCosts: z.object({ ai_readiness: z.int(), marketing_signal: z.int(), website_security: z.int() }),
    canStartRuns: z.boolean().describe('a paid plan, credits left and the runs:write scope'),
  }),
  // idempotentHint and destructiveHint mean something only for tools that write (MCP, ToolAnnotations).
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(_args, { client }) {
    const me = await client.me();
    const plan = me.plan ?? 'free';
    const remaining = me.credits?.remaining;
    const canStartRuns =
      plan !== 'free' && (remaining === undefined || remaining > 0) && me.scopes.includes('runs:write');
    const structured = {
      organizationName: me.organizationName,
      organizationId: me.organizationId,
      keyPrefix: me.keyPrefix,
      keyName: me.keyName,
      ...(me.projectId ? { pinnedProjectId: me.projectId } : {}),
      scopes: me.scopes,
      plan,
      ...(me.credits ? { creditsRemaining: me.credits.remaining, monthlyCredits: me.credits.monthlyIncluded } : {}),
      creditCosts: {
        ai_readiness: me.creditCosts.ai_readiness,
        marketing_signal: me.creditCosts.marketing,
        website_security: me.creditCosts.website_security,
      },
      canStartRuns,
    };
    const markdown = [
      // Names members chose are untrusted text for the model and the host: shown inert.
      `**${untrustedName(me.organizationName)}** with key \`${me.keyPrefix}…\` "${untrustedName(me.keyName)}"${me.projectId ? `, pinned to project \`${me.projectId}\`` : ''}.`,
      `Scopes: ${me.scopes.join(', ')}.`,
      `Plan: ${plan}; ${me.credits ? `${me.credits.remaining} credits left (the plan adds ${me.credits.monthlyIncluded} each month)` : 'no credit balance'}. Each audit costs ${me.creditCosts.ai_readiness} (AI readiness), ${me.creditCosts.marketing} (marketing), ${me.creditCosts.website_security} (security) credit(s).`,
      canStartRuns ? 'Audits can be started.' : 'Audits cannot be started with this key now (plan, credits or scope).',
      `Notifications (run.completed, run.failed, monitoring.changed) go to webhook endpoints configured through the service's API at /api/v1/webhooks, with a key that has webhooks:manage (${me.scopes.includes('webhooks:manage') ? 'this one has it' : 'this one does not'}).`,
      `Monitors watch a project's home page and key pages between audits: PUT /api/v1/projects/{projectId}/monitoring {"enabled": true} with projects:write, or \`siteaudit monitor on <site>\`.`,
    ].join('\n');
    return { structured, markdown };
  },
});
