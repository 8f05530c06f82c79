// restore_project: bring an archived project back so it can be audited again.
import { z } from 'zod';
import { Uuid } from '../src/contract/index.ts';
import { untrustedName } from '../src/mcp/page-content.ts';
import { defineTool } from '../src/mcp/tool.ts';

export const restoreProject = defineTool({
  name: 'restore_project',
  title: 'Restore an archived project',
  description:
    'Restores an archived project to active so runs can be started on it again; its earlier runs and reports are kept. Use it when start_run answers project_archived or create_project returns an archived project. Restoring an active project changes nothing. Next: start_run.',
  inputSchema: z.object({ projectId: Uuid.describe('the projectId to restore') }),
  outputSchema: z.object({
    projectId: z.string(),
    name: z.string(),
    domain: z.string(),
    status: z.string(),
    restored: z.boolean().describe('false when it was already active'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, { client }) {
    const project = await client.projects.restore(args.projectId);
    const structured = {
      projectId: project.projectId,
      name: project.name,
      domain: project.domain,
      status: project.status,
      restored: project.restored,
    };
    const markdown = `${structured.restored ? 'Restored' : 'Already active:'} project **${untrustedName(project.name)}** \`${project.domain}\` (projectId \`${project.projectId}\`). Next: start_run.`;
    return { structured, markdown };
  },
});
