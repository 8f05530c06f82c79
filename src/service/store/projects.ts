// Projects and the state transitions of spec 3.1, each one transaction.

import { newestFirstPage, nowIso, type Queryable, type StoreContext } from './context.ts';
import { uuidv7 } from './ids.ts';
import type { ProjectRow } from './tables.ts';

export type ProjectStatusFilter = 'active' | 'paused' | 'archived' | 'all' | undefined;

export interface ProjectPageQuery {
  organizationId: string;
  /** A project-pinned key's project: the page holds at most this one. */
  onlyProjectId?: string;
  status: ProjectStatusFilter;
  limit: number;
  /** Keyset position: rows strictly older than this (createdAt, id) pair. */
  after?: { createdAt: string; id: string };
}

export interface NewProject {
  organizationId: string;
  domain: string;
  name: string;
  slug: string;
}

export type CreateOutcome =
  | { outcome: 'created' | 'idempotent' | 'restored'; project: ProjectRow }
  | { outcome: 'limit_reached'; limit: number };

export type RestoreOutcome =
  | { outcome: 'restored' | 'idempotent'; project: ProjectRow }
  | { outcome: 'not_found' | 'not_archived' }
  | { outcome: 'limit_reached'; limit: number };

export type ArchiveOutcome =
  | { outcome: 'archived' | 'already_archived'; project: ProjectRow }
  | { outcome: 'not_found' | 'confirmation_mismatch' };

export function projectStore({ db, backend }: StoreContext) {
  // Serializes the project-changing transactions of one organization on PostgreSQL (SQLite's
  // BEGIN IMMEDIATE already serializes all writers), so the project limit cannot be overrun by a race.
  async function lockOrganization(trx: Queryable, organizationId: string): Promise<void> {
    if (backend !== 'postgres') return;
    await trx.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute();
  }

  async function countLive(trx: Queryable, organizationId: string): Promise<number> {
    const row = await trx
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('organization_id', '=', organizationId)
      .where('status', '!=', 'archived')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  function findInOrganization(q: Queryable, organizationId: string, id: string): Promise<ProjectRow | undefined> {
    return q
      .selectFrom('projects')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  function reactivate(trx: Queryable, id: string): Promise<ProjectRow> {
    return trx
      .updateTable('projects')
      .set({ status: 'active', archived_at: null, updated_at: nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  return {
    async get(organizationId: string, id: string): Promise<ProjectRow | undefined> {
      return findInOrganization(db, organizationId, id);
    },

    async getById(id: string): Promise<ProjectRow | undefined> {
      return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Newest first; answers one row more than `limit` when there is a next page. */
    async page(query: ProjectPageQuery): Promise<ProjectRow[]> {
      let q = db.selectFrom('projects').selectAll().where('organization_id', '=', query.organizationId);
      if (query.onlyProjectId) q = q.where('id', '=', query.onlyProjectId);
      if (query.status === undefined) q = q.where('status', '!=', 'archived');
      else if (query.status !== 'all') q = q.where('status', '=', query.status);
      return newestFirstPage(q, query.after, query.limit).execute();
    },

    /** spec 3.1, POST /projects: create, answer the live one, or restore the archived one. */
    async createOrRestore(input: NewProject, projectLimit: number): Promise<CreateOutcome> {
      return db.transaction().execute(async (trx) => {
        await lockOrganization(trx, input.organizationId);
        const existing = await trx
          .selectFrom('projects')
          .selectAll()
          .where('organization_id', '=', input.organizationId)
          .where('domain', '=', input.domain)
          .executeTakeFirst();
        if (existing && existing.status !== 'archived') return { outcome: 'idempotent', project: existing };
        if ((await countLive(trx, input.organizationId)) >= projectLimit) {
          return { outcome: 'limit_reached', limit: projectLimit };
        }
        // spec 3.1: archived -> active via POST restores the same row, history and keys kept.
        if (existing) return { outcome: 'restored', project: await reactivate(trx, existing.id) };
        const now = nowIso();
        const project: ProjectRow = {
          id: uuidv7(),
          organization_id: input.organizationId,
          name: input.name,
          domain: input.domain,
          slug: input.slug,
          status: 'active',
          created_at: now,
          updated_at: now,
          archived_at: null,
        };
        await trx.insertInto('projects').values(project).execute();
        return { outcome: 'created', project };
      });
    },

    /** spec 3.1, PATCH {status: active}. */
    async restore(organizationId: string, id: string, projectLimit: number): Promise<RestoreOutcome> {
      return db.transaction().execute(async (trx) => {
        await lockOrganization(trx, organizationId);
        const project = await findInOrganization(trx, organizationId, id);
        if (!project) return { outcome: 'not_found' };
        if (project.status === 'active') return { outcome: 'idempotent', project };
        if (project.status !== 'archived') return { outcome: 'not_archived' };
        if ((await countLive(trx, organizationId)) >= projectLimit)
          return { outcome: 'limit_reached', limit: projectLimit };
        return { outcome: 'restored', project: await reactivate(trx, id) };
      });
    },

    /** spec 3.1, DELETE with the exact domain as `confirm`: archive, never delete. */
    async archive(organizationId: string, id: string, confirm: string): Promise<ArchiveOutcome> {
      return db.transaction().execute(async (trx) => {
        await lockOrganization(trx, organizationId);
        const project = await findInOrganization(trx, organizationId, id);
        if (!project) return { outcome: 'not_found' };
        if (confirm !== project.domain) return { outcome: 'confirmation_mismatch' };
        if (project.status === 'archived') return { outcome: 'already_archived', project };
        const now = nowIso();
        const archived = await trx
          .updateTable('projects')
          .set({ status: 'archived', archived_at: now, updated_at: now })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { outcome: 'archived', project: archived };
      });
    },

    /** Operator move between active and paused (the spec leaves these moves open). */
    async setPaused(id: string, paused: boolean): Promise<ProjectRow | undefined> {
      const [from, to] = paused ? ['active', 'paused'] : ['paused', 'active'];
      await db
        .updateTable('projects')
        .set({ status: to, updated_at: nowIso() })
        .where('id', '=', id)
        .where('status', '=', from)
        .execute();
      return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
    },
  };
}
