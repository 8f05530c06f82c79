// create_project: a project for a domain; creating one that exists returns it (idempotent by domain).
import { z } from 'zod';
import { DOMAIN_MAX, DOMAIN_MIN, PROJECT_NAME_MAX } from '../src/contract/index.ts';
import { untrustedName } from '../src/mcp/page-content.ts';
import { defineTool } from '../src/mcp/tool.ts';

export const createProject = defineTool({
  name: 'create_project',
  title: 'Create a project',
  description:
    'Creates the project for a website domain so it can be audited, or returns the existing one for that domain (safe to call again: it never duplicates; an archived one is restored, and says so). Pass the bare host such as "example.com" (a URL is reduced to its host). Next: start_run with the returned projectId.',
  inputSchema: z.object({
    domain: z.string().min(DOMAIN_MIN).max(DOMAIN_MAX).describe('host name such as example.com'),
    name: z.string().min(1).max(PROJECT_NAME_MAX).optional().describe('display name; defaults to the domain'),
  }),
  outputSchema: z.object({
    projectId: z.string(),
    name: z.string(),
    domain: z.string(),
    status: z.string(),
    alreadyExisted: z.boolean(),
    restored: z.boolean().describe('true when the domain was archived and this call restored it'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, { client }) {
    const project = await client.projects.create({
      domain: hostOf(args.domain),
      ...(args.name ? { name: args.name } : {}),
    });
    const alreadyExisted = project.idempotent === true;
    // The API restores an archived project created again (spec 2.3); archiving asks for a typed
    // confirmation, so undoing it is said, never silent (issue 26).
    const restored = project.restored === true;
    const structured = {
      projectId: project.projectId,
      name: project.name,
      domain: project.domain,
      status: project.status,
      alreadyExisted,
      restored,
    };
    const next =
      project.status === 'archived'
        ? 'It is archived: call restore_project before starting a run.'
        : `Next: start_run with projectId \`${project.projectId}\`.`;
    const found = restored ? 'Restored the archived' : alreadyExisted ? 'Found the existing' : 'Created the';
    const markdown = `${found} project **${untrustedName(project.name)}** for \`${project.domain}\` (projectId \`${project.projectId}\`, ${project.status}). ${next}`;
    return { structured, markdown };
  },
});

/** Models often pass a URL; the API wants the host (with a port for local targets). */
function hostOf(domain: string): string {
  const trimmed = domain.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return trimmed.split('/', 1)[0] as string;
  try {
    return new URL(trimmed).host;
  } catch {
    return trimmed;
  }
}
