// Service-wide settings shared by every process on one database (for example the cursor signing secret).
import type { StoreContext } from './context.ts';

export function settingsStore({ db }: StoreContext) {
  return {
    /** The stored value of `name`, created from `make()` by whichever process gets there first. */
    async getOrCreate(name: string, make: () => string): Promise<string> {
      await db
        .insertInto('settings')
        .values({ name, value: make() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirstOrThrow();
      return row.value;
    },

    async get(name: string): Promise<string | undefined> {
      const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
      return row?.value;
    },

    async set(name: string, value: string): Promise<void> {
      await db
        .insertInto('settings')
        .values({ name, value })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
        .execute();
    },
  };
}
