// A fresh PostgreSQL schema per suite (and per benchmark run), so runs share one database safely.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A new, empty schema in the PostgreSQL at `url`: its connection string, and how to drop it. */
export async function createPostgresSchema(
  url: string,
  prefix = 't',
): Promise<{ databaseUrl: string; drop(): Promise<void> }> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create schema ${schema}`);
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema}`);
  return { databaseUrl: scoped.toString(), drop: () => run(`drop schema if exists ${schema} cascade`) };
}
