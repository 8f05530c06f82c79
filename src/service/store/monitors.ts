// Monitoring's schedule and history (issue 11). One row per monitored project, leased by the checker
// of any process when due (as runs and deliveries are), so processes on one PostgreSQL share the
// schedule and a killed checker's project is taken again when its lease runs out. The claim is fair
// (issue 28): an organization has at most so many checks in progress, its slow sites fewer and after
// everyone's others, and a host one check at a time, across every process.
import { sql } from 'kysely';
import { startUrlFor } from '../runs.ts';
import { newestFirstPage, type Queryable, type StoreContext } from './context.ts';
import { runHost } from './runs.ts';
import type { EventsTable, MonitorCheckRow, MonitorRow, ProjectRow } from './tables.ts';

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
  /** The check was slow (it used much of its time budget): the next one goes after other sites'. */
  slow?: boolean;
}

/**
 * What a claim keeps to, counting checks in progress (a live lease; a lapsed one's checker is gone).
 * A host has one check at a time whatever the limits.
 */
export interface MonitorLimits {
  /** Checks of one organization at once, across every process (`serve --org-max-monitor-checks`). */
  organizationLanes: number;
  /** Of those, of its slow sites, which go after other sites (`--org-max-slow-monitor-checks`). */
  slowLanes: number;
}

export const DEFAULT_MONITOR_LIMITS: MonitorLimits = { organizationLanes: 2, slowLanes: 1 };

/** The host a monitor's checks are polite to: the runs' rule (runs.ts runHost), null on this machine. */
export function monitorHost(domain: string): string | null {
  // startUrlFor reads the domain alone.
  const { url, local } = startUrlFor({ domain } as ProjectRow);
  return runHost(url, local);
}

/** Classes of the PostgreSQL advisory locks (first key) that serialize check claims per organization and host. */
const ORGANIZATION_LOCK = 28_021;
const HOST_LOCK = 28_022;
/** Candidates one claim tries (each skipped for a lock another claimer holds, or a paused project). */
const CLAIM_TRIES = 16;
/** A due monitor of a paused or archived project is looked at again this much later, not at every claim. */
const INACTIVE_RECHECK_MS = 3600_000;

/** A check in progress, or one whose checker vanished (a lapsed lease). */
interface Lease {
  project_id: string;
  organization_id: string;
  host: string | null;
  slow: number;
  lease_expires_at: string | null;
}

/** Who may not start another check now: by organization (at its cap, or its slow lanes full) and host. */
interface Load {
  /** Organizations with a check in progress, and those at their cap. */
  busy: Set<string>;
  full: Set<string>;
  slowFull: Set<string>;
  hosts: Set<string>;
}

function loadOf(leases: Lease[], now: string, limits: MonitorLimits): Load {
  const counts = new Map<string, { all: number; slow: number }>();
  const hosts = new Set<string>();
  for (const lease of leases) {
    if (lease.lease_expires_at === null || lease.lease_expires_at < now) continue;
    const count = counts.get(lease.organization_id) ?? { all: 0, slow: 0 };
    count.all += 1;
    count.slow += lease.slow;
    counts.set(lease.organization_id, count);
    if (lease.host !== null) hosts.add(lease.host);
  }
  const load: Load = { busy: new Set(counts.keys()), full: new Set(), slowFull: new Set(), hosts };
  for (const [organization, count] of counts) {
    if (count.all >= limits.organizationLanes) load.full.add(organization);
    if (count.all >= limits.organizationLanes || count.slow >= limits.slowLanes) load.slowFull.add(organization);
  }
  return load;
}

/** What a claim passes over: organizations and hosts whose lock another claimer holds, projects tried. */
interface Skip {
  organizations: Set<string>;
  hosts: Set<string>;
  projects: Set<string>;
}

const union = (...sets: Array<Set<string>>) => [...new Set(sets.flatMap((set) => [...set]))];

export function monitorStore({ db, backend }: StoreContext) {
  /** Every lease, live or lapsed: one per lane of every process, read whole from monitors_leased. */
  const leases = (q: Queryable): Promise<Lease[]> =>
    q
      .selectFrom('monitors')
      .select(['project_id', 'organization_id', 'host', 'slow', 'lease_expires_at'])
      .where('lease_owner', 'is not', null)
      .execute();

  /**
   * The earliest due monitor of one kind (healthy or slow) that is not leased and not excluded: a
   * range of monitors_queue that passes over at most the excluded organizations' due monitors.
   */
  const earliest = (
    q: Queryable,
    now: string,
    slow: boolean,
    exclude: { organizations: string[]; hosts: string[]; projects: string[] },
  ) =>
    q
      .selectFrom('monitors')
      .select(['project_id', 'organization_id', 'host', 'slow'])
      .where('enabled', '=', 1)
      .where('slow', '=', slow ? 1 : 0)
      .where('next_check_at', '<=', now)
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
      .$if(exclude.organizations.length > 0, (b) => b.where('organization_id', 'not in', exclude.organizations))
      .$if(exclude.projects.length > 0, (b) => b.where('project_id', 'not in', exclude.projects))
      .$if(exclude.hosts.length > 0, (b) =>
        b.where((eb) => eb.or([eb('host', 'is', null), eb('host', 'not in', exclude.hosts)])),
      )
      .orderBy('next_check_at', 'asc')
      .limit(1)
      .executeTakeFirst();

  /**
   * The monitor a claim should take next, as of one read of the leases: healthy sites of
   * organizations with no check in progress first, then of those under their cap, then slow sites of
   * organizations whose slow lanes are not full; never a host being checked.
   */
  async function choose(q: Queryable, now: string, limits: MonitorLimits, skip: Skip) {
    const load = loadOf(await leases(q), now, limits);
    const hosts = union(load.hosts, skip.hosts);
    const projects = [...skip.projects];
    const passes: Array<{ slow: boolean; organizations: string[] }> = [
      { slow: false, organizations: union(load.busy, skip.organizations) },
      ...(load.full.size < load.busy.size
        ? [{ slow: false, organizations: union(load.full, skip.organizations) }]
        : []),
      { slow: true, organizations: union(load.slowFull, skip.organizations) },
    ];
    for (const pass of passes) {
      const found = await earliest(q, now, pass.slow, { organizations: pass.organizations, hosts, projects });
      if (found) return found;
    }
    return undefined;
  }

  /** Takes the PostgreSQL advisory lock of class `kind` on `key` until the transaction ends, unless another holds it. */
  async function tryLock(trx: Queryable, kind: number, key: string): Promise<boolean> {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(${sql.lit(kind)}, hashtext(${key}::text)) as locked`.execute(trx);
    return rows[0]?.locked === true;
  }

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
      project: Pick<ProjectRow, 'id' | 'organization_id' | 'domain'>,
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
            host: monitorHost(project.domain),
            slow: 0,
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

    /**
     * One due monitor of an active project, leased to `owner`, with its project, within `limits`
     * (see choose). On PostgreSQL, claimers of several processes serialize per organization and per
     * host with transaction-level advisory locks (safe behind PgBouncer's transaction mode), taken
     * without waiting: a claimer that finds one held passes to another organization or host.
     */
    async claim(
      owner: string,
      now: string,
      leaseMs: number,
      limits: MonitorLimits = DEFAULT_MONITOR_LIMITS,
    ): Promise<{ monitor: MonitorRow; project: ProjectRow } | undefined> {
      const skip: Skip = { organizations: new Set(), hosts: new Set(), projects: new Set() };
      // Most looks find nothing they may take: plain reads then, not a write transaction (on SQLite,
      // the write lock) every few seconds in every process.
      if (!(await choose(db, now, limits, skip))) return undefined;
      return db.transaction().execute(async (trx) => {
        for (let tries = 0; tries < CLAIM_TRIES; tries++) {
          const picked = await choose(trx, now, limits, skip);
          if (!picked) return undefined;
          if (backend === 'postgres') {
            // SQLite's transaction holds the only write lock, so what choose read stands. Here the
            // claimer first becomes the only one of the organization and the host, then reads the
            // caps again, then holds the monitor's row.
            if (!(await tryLock(trx, ORGANIZATION_LOCK, picked.organization_id))) {
              skip.organizations.add(picked.organization_id);
              continue;
            }
            if (picked.host !== null && !(await tryLock(trx, HOST_LOCK, picked.host))) {
              skip.hosts.add(picked.host);
              continue;
            }
            const load = loadOf(await leases(trx), now, limits);
            if ((picked.slow === 1 ? load.slowFull : load.full).has(picked.organization_id)) {
              skip.organizations.add(picked.organization_id);
              continue;
            }
            if (picked.host !== null && load.hosts.has(picked.host)) {
              skip.hosts.add(picked.host);
              continue;
            }
            // Still due and free as it is now (a claimer that held the locks before us may have taken it).
            const still = await trx
              .selectFrom('monitors')
              .select('project_id')
              .where('project_id', '=', picked.project_id)
              .where('enabled', '=', 1)
              .where('next_check_at', '<=', now)
              .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
              .forUpdate()
              .skipLocked()
              .executeTakeFirst();
            if (!still) {
              skip.projects.add(picked.project_id);
              continue;
            }
          }
          const project = await trx
            .selectFrom('projects')
            .selectAll()
            .where('id', '=', picked.project_id)
            .executeTakeFirst();
          if (project?.status !== 'active') {
            // Paused and archived projects keep their setting but are not checked; looked at hourly
            // rather than passed over by every claim.
            await trx
              .updateTable('monitors')
              .set({ next_check_at: new Date(Date.parse(now) + INACTIVE_RECHECK_MS).toISOString() })
              .where('project_id', '=', picked.project_id)
              .execute();
            skip.projects.add(picked.project_id);
            continue;
          }
          const monitor = await trx
            .updateTable('monitors')
            .set({ lease_owner: owner, lease_expires_at: new Date(Date.parse(now) + leaseMs).toISOString() })
            .where('project_id', '=', picked.project_id)
            .returningAll()
            .executeTakeFirstOrThrow();
          return { monitor, project };
        }
        return undefined;
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
            slow: results.slow ? 1 : 0,
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
