import pg from 'pg';

/**
 * A failover as a test sees it: every PostgreSQL connection of the test's own pool (found by its `application_name`)
 * terminated, never another test's. Answers how many were cut.
 */
export async function terminateBackends(applicationName: string, connectionString = process.env.DATABASE_URL): Promise<number> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()',
      [applicationName],
    );
    return rows.length;
  } finally {
    await client.end();
  }
}
