// Single-use authorization codes of the command-line browser sign-in (spec 4.2), stored as hashes.
import type { StoreContext } from './context.ts';
import type { CliAuthCodesTable } from './tables.ts';

export function cliCodeStore({ db }: StoreContext) {
  return {
    async insert(row: CliAuthCodesTable): Promise<void> {
      await db.insertInto('cli_auth_codes').values(row).execute();
    },

    /**
     * Marks the code used and answers it, in one statement, so two exchanges of one code cannot both
     * succeed. Answers undefined for an unknown, used or expired code.
     */
    async consume(codeHash: string, now: string): Promise<CliAuthCodesTable | undefined> {
      return db
        .updateTable('cli_auth_codes')
        .set({ used_at: now })
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
    },
  };
}
