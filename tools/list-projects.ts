// list_projects: the organization's projects (one per domain), a page at a time.
import { z } from 'zod';
import { PAGE_LIMIT_MAX, Project, ProjectStatusFilter } from '../src/contract/index.ts';
import { projectLine } from '../src/mcp/markdown.ts';
import { defineTool } from '../src/mcp/tool.ts';

const ProjectView = Project.pick({ projectId: true, name: true, domain: true, status: true, createdAt: true });

export const listProjects = defineTool({
  name: 'list_projects',
  title: 'List projects',
  description:
    'Lists the audited sites (projects, one per domain) of the organization, newest first, with projectId and status. Use it to find the projectId for start_run or whether a domain is already a project; archived projects show only with status "archived" or "all". Reads only.',
  inputSchema: z.object({
    status: ProjectStatusFilter.optional().describe('active (default), paused, archived, or all'),
    limit: z.int().min(1).max(PAGE_LIMIT_MAX).optional().describe('default 20'),
    cursor: z.string().min(1).optional().describe('nextCursor from the previous page'),
  }),
  outputSchema: z.object({
    projects: z.array(ProjectView),
    nextCursor: z.string().optional(),
    hasMore: z.boolean(),
  }),
  // idempotentHint and destructiveHint mean something only for tools that write (MCP, ToolAnnotations).
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, { client }) {
    const page = await client.projects.list({
      ...(args.status ? { status: args.status } : {}),
      ...(args.limit ? { limit: args.limit } : {}),
      ...(args.cursor ? { cursor: args.cursor } : {}),
    });
    const projects = page.projects.map(({ projectId, name, domain, status, createdAt }) => ({
      projectId,
      name,
      domain,
      status,
      createdAt,
    }));
    const nextCursor = page.pagination.nextCursor;
    const markdown =
      projects.length === 0
        ? 'No projects match. Create one with create_project and a domain.'
        : [
            `**${projects.length} project(s)**:`,
            ...page.projects.map(projectLine),
            nextCursor ? `More: call list_projects with cursor \`${nextCursor}\`.` : '',
          ]
            .filter(Boolean)
            .join('\n');
    return { structured: { projects, ...(nextCursor ? { nextCursor } : {}), hasMore: nextCursor !== null }, markdown };
  },
});
