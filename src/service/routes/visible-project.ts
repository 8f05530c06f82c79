// Which projects a key may see: all of its organization's, or only its own when pinned (docs/decisions.md).
import type { AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { idParam } from '../request.ts';
import type { ProjectRow, Store } from '../store/index.ts';

export function visibleTo(c: AppContext, projectId: string): boolean {
  const pinned = c.get('auth').key.project_id;
  return pinned === null || pinned === projectId;
}

/** The project named by the `projectId` path parameter, or 404 when absent, foreign or not visible. */
export async function findVisibleProject(c: AppContext, store: Store): Promise<ProjectRow> {
  const id = idParam(c, 'projectId', 'project');
  const row = visibleTo(c, id) ? await store.projects.get(c.get('auth').organization.id, id) : undefined;
  if (!row) throw notFound('project');
  return row;
}
