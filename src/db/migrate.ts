import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import * as initial from './migrations/0001-initial.ts';
import * as completeChallenge from './migrations/0002-complete-challenge.ts';
import * as completeChallenges from './migrations/0003-complete-challenges.ts';
import * as recyclingPoints from './migrations/0004-recycling-points.ts';
import * as challengeAvailability from './migrations/0005-challenge-availability.ts';
import * as accounts from './migrations/0006-accounts.ts';
import * as mediaGroup from './migrations/0007-media-group.ts';
import * as streetsAndAreas from './migrations/0008-streets-and-areas.ts';
import * as searchCounts from './migrations/0009-search-counts.ts';
import * as reminders from './migrations/0010-reminders.ts';
import * as passMarkAndGroupContact from './migrations/0011-pass-mark-and-group-contact.ts';
import * as conversationChanges from './migrations/0013-conversation-changes.ts';
import * as cannedReplies from './migrations/0014-canned-replies.ts';
import * as assistantState from './migrations/0016-assistant-state.ts';
import * as reminderMailboxConfirms from './migrations/0017-reminder-mailbox-confirms.ts';
import * as collectionsThatMove from './migrations/0018-collections-that-move.ts';
import * as serviceNotices from './migrations/0019-service-notices.ts';
import * as residentRequests from './migrations/0020-resident-requests.ts';
import * as requestChanges from './migrations/0021-request-changes.ts';
import * as bulkyPickups from './migrations/0022-bulky-pickups.ts';
import * as open311Keys from './migrations/0023-open311-keys.ts';
import * as embedOrigins from './migrations/0024-embed-origins.ts';
import * as searchCountShown from './migrations/0025-search-count-shown.ts';

/** Migrations live in code so that they ship with the service and need no file-system lookup. */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-complete-challenge': completeChallenge,
  '0003-complete-challenges': completeChallenges,
  '0004-recycling-points': recyclingPoints,
  '0005-challenge-availability': challengeAvailability,
  '0006-accounts': accounts,
  '0007-media-group': mediaGroup,
  '0008-streets-and-areas': streetsAndAreas,
  '0009-search-counts': searchCounts,
  '0010-reminders': reminders,
  '0011-pass-mark-and-group-contact': passMarkAndGroupContact,
  '0013-conversation-changes': conversationChanges,
  '0014-canned-replies': cannedReplies,
  '0016-assistant-state': assistantState,
  '0017-reminder-mailbox-confirms': reminderMailboxConfirms,
  '0018-collections-that-move': collectionsThatMove,
  '0019-service-notices': serviceNotices,
  '0020-resident-requests': residentRequests,
  '0021-request-changes': requestChanges,
  '0022-bulky-pickups': bulkyPickups,
  '0023-open311-keys': open311Keys,
  '0024-embed-origins': embedOrigins,
  '0025-search-count-shown': searchCountShown,
};

const provider: MigrationProvider = {
  getMigrations: async () => migrations,
};

/** Brings the schema up to date; Kysely's migration lock makes concurrent starts safe. */
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<string[]> {
  if (await isUpToDate(db, schema)) return [];
  // Numbers are handed out to work done in parallel, so a database may have run 0013 before 0011 exists: run the
  // missing ones whatever their place in the order (each migration stands on its own).
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Whether every migration is already recorded: one read, where the migrator would create its tables, take its
 * lock and compare (a few hundred milliseconds of every start on PGlite). Any doubt runs the migrator.
 */
async function isUpToDate(db: Kysely<any>, schema?: string): Promise<boolean> {
  try {
    const table = schema ? sql.id(schema, 'kysely_migration') : sql.id('kysely_migration');
    const { rows } = await sql<{ name: string }>`SELECT name FROM ${table}`.execute(db);
    const applied = new Set(rows.map((r) => r.name));
    return Object.keys(migrations).every((name) => applied.has(name));
  } catch {
    return false;
  }
}
