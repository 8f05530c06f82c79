// Monitoring's schedule and history (issue 11). One row per monitored project, leased by the checker
// of any process when due (as runs and deliveries are), so processes on one PostgreSQL share the
// schedule and a killed checker's project is taken again when its lease runs out.
import type { Transaction } from 'kysely';
import { newestFirstPage, type StoreContext } from './context.ts';
import type { Database, EventsTable, MonitorCheckRow, MonitorRow, ProjectRow } from './tables.ts';

export interface MonitorSetting {
  enabled: boolean;
  /** Minutes between checks; null: the service's default. */
  intervalMinutes: number | null;
}

export interface CheckResults {
  checkedAt: string;
  /** JSON of the pages' states after this check. */
  pages: string;
  checks: Array<Omit<MonitorCheckRow, 'organization_id' | 'project_id'>>;
  events: Array<Omit<EventsTable, 'run_id' | 'organization_id' | 'dispatched_at'>>;
  /** When the next check is due (ignored when monitoring was switched off meanwhile). */
  nextCheckAt: string;
}

export function monitorStore({ db, backend }: StoreContext) {
  const due = (q: typeof db | Transaction<Database>, now: string) =>
    q
      .selectFrom('monitors')
      .select('project_id')
      .where('enabled', '=', 1)
      .where('next_check_at', '<=', now)
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      // Archived and paused projects keep their setting but are not checked.
      .where('project_id', 'in', (eb) => eb.selectFrom('projects').select('id').where('status', '=', 'active'))
      .orderBy('next_check_at', 'asc')
      .limit(1);

  return {
    get(organizationId: string, projectId: string): Promise<MonitorRow | undefined> {
      return db
        .selectFrom('monitors')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('project_id', '=', projectId)
        .executeTakeFirst();
    },

    /**
     * Switches monitoring on or off and sets its interval. Switching on checks soon (`now`); a new
     * interval on a monitor already on moves its next check to the last one plus that interval.
     */
    async set(
      project: Pick<ProjectRow, 'id' | 'organization_id'>,
      setting: MonitorSetting,
      effectiveMinutes: number,
      now: string,
    ): Promise<MonitorRow> {
      return db.transaction().execute(async (trx) => {
        await trx
          .insertInto('monitors')
          .values({
            project_id: project.id,
            organization_id: project.organization_id,
            enabled: 0,
            interval_minutes: null,
            next_check_at: null,
            last_checked_at: null,
            lease_owner: null,
            lease_expires_at: null,
            pages: '{}',
            created_at: now,
            updated_at: now,
          })
          .onConflict((oc) => oc.column('project_id').doNothing())
          .execute();
        let current = trx.selectFrom('monitors').selectAll().where('project_id', '=', project.id);
        if (backend === 'postgres') current = current.forUpdate();
        const row = await current.executeTakeFirstOrThrow();
        let next: string | null = null;
        if (setting.enabled) {
          const fromLast = row.last_checked_at
            ? new Date(Date.parse(row.last_checked_at) + effectiveMinutes * 60_000).toISOString()
            : now;
          next = row.enabled === 1 && fromLast > now ? fromLast : now;
        }
        return trx
          .updateTable('monitors')
          .set({
            enabled: setting.enabled ? 1 : 0,
            interval_minutes: setting.intervalMinutes,
            next_check_at: next,
            updated_at: now,
          })
          .where('project_id', '=', project.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
    },

    /** One due monitor of an active project, leased to `owner`, with its project. */
    async claim(
      owner: string,
      now: string,
      leaseMs: number,
    ): Promise<{ monitor: MonitorRow; project: ProjectRow } | undefined> {
      // Most looks find nothing: a plain read first, not a write transaction every few seconds.
      if (!(await due(db, now).executeTakeFirst())) return undefined;
      return db.transaction().execute(async (trx) => {
        let pick = due(trx, now);
        if (backend === 'postgres') pick = pick.forUpdate().skipLocked();
        const picked = await pick.executeTakeFirst();
        if (!picked) return undefined;
        const monitor = await trx
          .updateTable('monitors')
          .set({ lease_owner: owner, lease_expires_at: new Date(Date.parse(now) + leaseMs).toISOString() })
          .where('project_id', '=', picked.project_id)
          .returningAll()
          .executeTakeFirstOrThrow();
        const project = await trx
          .selectFrom('projects')
          .selectAll()
          .where('id', '=', monitor.project_id)
          .executeTakeFirstOrThrow();
        return { monitor, project };
      });
    },

    /**
     * Writes a check's results, its events (outbox) and the pages' new state in one transaction, and
     * gives the lease back; nothing is written when the lease was lost to another checker.
     */
    async finish(projectId: string, owner: string, results: CheckResults): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const monitor = await trx
          .selectFrom('monitors')
          .select(['organization_id', 'enabled'])
          .where('project_id', '=', projectId)
          .where('lease_owner', '=', owner)
          .executeTakeFirst();
        if (!monitor) return false;
        for (const check of results.checks)
          await trx
            .insertInto('monitor_checks')
            .values({ ...check, organization_id: monitor.organization_id, project_id: projectId })
            .execute();
        for (const event of results.events)
          await trx
            .insertInto('events')
            .values({ ...event, organization_id: monitor.organization_id, run_id: null })
            .execute();
        await trx
          .updateTable('monitors')
          .set({
            pages: results.pages,
            last_checked_at: results.checkedAt,
            next_check_at: monitor.enabled === 1 ? results.nextCheckAt : null,
            lease_owner: null,
            lease_expires_at: null,
          })
          .where('project_id', '=', projectId)
          .execute();
        return true;
      });
    },

    /** Gives back the monitors `owner` holds (a stopping process); they stay due. */
    async release(owner: string): Promise<void> {
      await db
        .updateTable('monitors')
        .set({ lease_owner: null, lease_expires_at: null })
        .where('lease_owner', '=', owner)
        .execute();
    },

    /** A project's checks, newest first; only those that emitted an event when `changesOnly`. */
    page(
      projectId: string,
      limit: number,
      after: { createdAt: string; id: string } | undefined,
      changesOnly: boolean,
    ): Promise<MonitorCheckRow[]> {
      let q = db.selectFrom('monitor_checks').selectAll().where('project_id', '=', projectId);
      if (changesOnly) q = q.where('kind', 'is not', null);
      return newestFirstPage(q, after, limit).execute();
    },

    /** Deletes checks made before `before`, a bounded batch per statement; answers how many. */
    async prune(before: Date, batch = 5000): Promise<number> {
      let total = 0;
      for (;;) {
        const result = await db
          .deleteFrom('monitor_checks')
          .where(
            'id',
            'in',
            db.selectFrom('monitor_checks').select('id').where('created_at', '<', before.toISOString()).limit(batch),
          )
          .executeTakeFirst();
        const deleted = Number(result.numDeletedRows);
        total += deleted;
        if (deleted < batch) return total;
      }
    },
  };
}
