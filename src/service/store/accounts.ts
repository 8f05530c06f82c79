// People (issue 12): users, their memberships of organizations, browser sessions, invitation links
// and one-time sign-in links. Tokens are stored as SHA-256 hashes only.
import { nowIso, type StoreContext } from './context.ts';
import type { InvitationRow, MembershipRow, OrganizationRow, PasskeyRow, SessionRow, UserRow } from './tables.ts';

export interface Workspace {
  organization: OrganizationRow;
  role: string;
}

export function accountStore({ db }: StoreContext) {
  return {
    async insertUser(row: UserRow): Promise<void> {
      await db.insertInto('users').values(row).execute();
    },

    findUserByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
    },

    /** How many people have an account, leaving out the one with `email`. */
    async countUsersExcept(email: string): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('email', '!=', email.toLowerCase())
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    findUser(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async setPassword(userId: string, passwordHash: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: nowIso() })
        .where('id', '=', userId)
        .execute();
    },

    /** Adds the membership, or keeps the one there is (its role unchanged). */
    async addMembership(row: MembershipRow): Promise<void> {
      await db
        .insertInto('memberships')
        .values(row)
        .onConflict((oc) => oc.columns(['user_id', 'organization_id']).doNothing())
        .execute();
    },

    /** The user's workspaces, oldest membership first. */
    async workspaces(userId: string): Promise<Workspace[]> {
      const rows = await db
        .selectFrom('memberships as m')
        .innerJoin('organizations as o', 'o.id', 'm.organization_id')
        .selectAll('o')
        .select(['m.role as member_role', 'm.created_at as member_since'])
        .where('m.user_id', '=', userId)
        .orderBy('m.created_at', 'asc')
        .execute();
      return rows.map(({ member_role, member_since: _since, ...organization }) => ({
        organization,
        role: member_role,
      }));
    },

    async members(organizationId: string): Promise<Array<{ user: UserRow; role: string; since: string }>> {
      const rows = await db
        .selectFrom('memberships as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .selectAll('u')
        .select(['m.role as member_role', 'm.created_at as member_since'])
        .where('m.organization_id', '=', organizationId)
        .orderBy('m.created_at', 'asc')
        .execute();
      return rows.map(({ member_role, member_since, ...user }) => ({ user, role: member_role, since: member_since }));
    },

    async insertSession(row: SessionRow): Promise<void> {
      await db.insertInto('sessions').values(row).execute();
    },

    /** The live session with this token hash, with its user. */
    async findSession(tokenHash: string, now: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
      const session = await db
        .selectFrom('sessions')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (!session) return undefined;
      const user = await db.selectFrom('users').selectAll().where('id', '=', session.user_id).executeTakeFirst();
      return user ? { session, user } : undefined;
    },

    async touchSession(tokenHash: string, change: Partial<Omit<SessionRow, 'token_hash' | 'user_id'>>): Promise<void> {
      await db.updateTable('sessions').set(change).where('token_hash', '=', tokenHash).execute();
    },

    async deleteSession(tokenHash: string): Promise<void> {
      await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    },

    async insertInvitation(row: InvitationRow): Promise<void> {
      await db.insertInto('invitations').values(row).execute();
    },

    findInvitation(tokenHash: string): Promise<InvitationRow | undefined> {
      return db.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },

    /** Marks the invitation used by `userId` when it is still open; false when it was not. */
    async useInvitation(tokenHash: string, userId: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('invitations')
        .set({ used_at: now, used_by: userId })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    openInvitations(organizationId: string, now: string): Promise<InvitationRow[]> {
      return db
        .selectFrom('invitations')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .execute();
    },

    async insertRunShare(row: { token_hash: string; run_id: string; created_by: string; created_at: string }) {
      await db
        .insertInto('run_shares')
        .values({ ...row, revoked_at: null })
        .execute();
    },

    /** The run a live share link opens, or undefined. */
    async sharedRun(tokenHash: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('run_shares')
        .select('run_id')
        .where('token_hash', '=', tokenHash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row?.run_id;
    },

    async liveShares(runId: string): Promise<number> {
      const row = await db
        .selectFrom('run_shares')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('run_id', '=', runId)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async stopSharing(runId: string, now: string): Promise<void> {
      await db
        .updateTable('run_shares')
        .set({ revoked_at: now })
        .where('run_id', '=', runId)
        .where('revoked_at', 'is', null)
        .execute();
    },

    async insertPasskey(row: PasskeyRow): Promise<void> {
      await db.insertInto('passkeys').values(row).execute();
    },

    passkeys(userId: string): Promise<PasskeyRow[]> {
      return db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at', 'asc').execute();
    },

    findPasskey(id: string): Promise<PasskeyRow | undefined> {
      return db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async usePasskey(id: string, counter: number, now: string): Promise<void> {
      await db.updateTable('passkeys').set({ counter, last_used_at: now }).where('id', '=', id).execute();
    },

    async deletePasskey(userId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('passkeys')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async insertChallenge(row: {
      id: string;
      challenge: string;
      user_id: string | null;
      purpose: string;
      expires_at: string;
    }): Promise<void> {
      await db.insertInto('webauthn_challenges').values(row).execute();
    },

    /** Deletes the challenges that expired before `now`. */
    async pruneChallenges(now: string): Promise<void> {
      await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
    },

    /** How many challenges are live at `now`. */
    async countChallenges(now: string): Promise<number> {
      const row = await db
        .selectFrom('webauthn_challenges')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Deletes a person's challenges for `purpose` (a new one replaces them). */
    async dropChallenges(userId: string, purpose: string): Promise<void> {
      await db.deleteFrom('webauthn_challenges').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
    },

    /** Takes a challenge out (once), if it is live and for this purpose. */
    async takeChallenge(
      id: string,
      purpose: string,
      now: string,
    ): Promise<{ challenge: string; user_id: string | null } | undefined> {
      const row = await db
        .deleteFrom('webauthn_challenges')
        .where('id', '=', id)
        .where('purpose', '=', purpose)
        .returning(['challenge', 'user_id', 'expires_at'])
        .executeTakeFirst();
      await db.deleteFrom('webauthn_challenges').where('expires_at', '<', now).execute();
      return row && row.expires_at > now ? row : undefined;
    },

    async insertSignInLink(row: { token_hash: string; user_id: string; created_at: string; expires_at: string }) {
      await db
        .insertInto('sign_in_links')
        .values({ ...row, used_at: null })
        .execute();
    },

    /** Spends a one-time sign-in link; answers its user when it was open. */
    async useSignInLink(tokenHash: string, now: string): Promise<string | undefined> {
      const result = await db
        .updateTable('sign_in_links')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return undefined;
      const row = await db
        .selectFrom('sign_in_links')
        .select('user_id')
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row?.user_id;
    },
  };
}
