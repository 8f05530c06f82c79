// Issue 23: an invitation names the email address it was made for, so only that person accepts it;
// passkey challenges are pruned by expiry, through an index.
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const invitationEmails: Migration = {
  async up(db: Kysely<unknown>) {
    // Null on invitations made before: they stay open to whoever holds them until they expire (7 days).
    await db.schema.alterTable('invitations').addColumn('email', 'text').execute();
    await db.schema.createIndex('webauthn_challenges_expiry').on('webauthn_challenges').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('webauthn_challenges_expiry').execute();
    await db.schema.alterTable('invitations').dropColumn('email').execute();
  },
};
