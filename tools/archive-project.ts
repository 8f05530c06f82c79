// archive_project: hide a project and stop its audits. Destructive, so it needs the domain typed back
// as `confirm`, and where the client can show a form, the person's own yes.
import { acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { Uuid } from '../src/contract/index.ts';
import { toolRefusal } from '../src/mcp/errors.ts';
import { untrustedName } from '../src/mcp/page-content.ts';
import { defineTool } from '../src/mcp/tool.ts';

const CONFIRM_KEY = 'confirm_archive';
const Confirmation = z.object({ archive: z.boolean().describe('Archive this project?') });

export const archiveProject = defineTool({
  name: 'archive_project',
  title: 'Archive a project',
  description:
    "Archives a project: it leaves the project list and no run can start on it until restore_project. Reports already made stay readable. Only call it when the person asked to remove the site; set confirm to the project's domain exactly (list_projects shows it). The person is asked to confirm when the client supports it.",
  inputSchema: z.object({
    projectId: Uuid.describe('the projectId to archive'),
    confirm: z.string().min(1).describe("the project's domain, typed exactly, to confirm"),
  }),
  outputSchema: z.object({
    projectId: z.string(),
    domain: z.string(),
    archived: z.boolean(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(args, { client, canElicit, request }) {
    const project = await client.projects.get(args.projectId);
    if (args.confirm.trim().toLowerCase() !== project.domain.toLowerCase()) {
      return toolRefusal(
        'confirmation_mismatch',
        `confirm "${args.confirm}" is not the project's domain ${project.domain}`,
        `Ask the person whether ${project.domain} should be archived; if so, call again with confirm "${project.domain}".`,
        400,
      );
    }
    if (canElicit && project.status !== 'archived') {
      const responses = request.mcpReq.inputResponses;
      if (!responses || !(CONFIRM_KEY in responses)) {
        return inputRequired({
          inputRequests: {
            [CONFIRM_KEY]: inputRequired.elicit({
              message: `Archive the project ${untrustedName(project.name)} (${project.domain})? It will leave the project list and no audit can start on it until it is restored.`,
              requestedSchema: Confirmation,
            }),
          },
        });
      }
      const answer = acceptedContent(responses, CONFIRM_KEY, Confirmation);
      if (answer?.archive !== true) {
        return toolRefusal(
          'not_confirmed',
          `the person did not confirm archiving ${project.domain}; nothing was changed`,
          'Leave the project as it is unless the person asks again.',
        );
      }
    }
    const result = await client.projects.archive(project.projectId, project.domain);
    return {
      structured: { projectId: result.projectId, domain: project.domain, archived: result.archived },
      markdown: `Archived project **${untrustedName(project.name)}** \`${project.domain}\` (projectId \`${project.projectId}\`). restore_project brings it back.`,
    };
  },
});
