import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { insertCalendarScenario, type CalendarScenario } from '../helpers/calendar-fixtures.ts';
import { reminderPeers } from '../helpers/reminder-peers.ts';

/**
 * Confirmation e-mails are bounded per mailbox, not per string: `name+1@…`, `Name@…` are one
 * mailbox, whatever the domain. And per client IP, so that rotating addresses does not make the service mail any
 * number of strangers. With REDIS_URL set, every instance counts against the same budgets.
 */

const TOO_MANY = {
  statusCode: 429,
  message: 'Trop de requêtes : réessayez dans quelques instants.',
  error: 'Too Many Requests',
  code: 'rateLimited',
  field: null,
};

/** The same mailbox written six ways, then a seventh; 5 confirmation e-mails a day per mailbox. */
const MAILBOX_VARIANTS = [
  'jeanne+1@exemple.fr',
  'Jeanne+rappels@Exemple.FR',
  'JEANNE@exemple.fr',
  'jeanne+2@exemple.fr',
  'jeanne+a+b@exemple.fr',
  'jeanne+6@exemple.fr',
  'jeanne@EXEMPLE.fr',
];

async function deleteKeys(url: string, prefix: string) {
  const redis = new Redis(url);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
}

function assertTooMany(response: Awaited<ReturnType<FastifyInstance['inject']>>) {
  assert.equal(response.statusCode, 429, response.body);
  assert.deepEqual(response.json(), TOO_MANY);
  const retryAfter = Number(response.headers['retry-after']);
  assert.ok(retryAfter >= 1 && retryAfter <= 86_400, `Retry-After ${retryAfter}`);
}

for (const kind of testDatabaseKinds()) {
  describe(`confirmation e-mails per mailbox and per IP (${kind})`, () => {
    const peers = reminderPeers();
    const mailEnv = () => ({ SMTP_URL: peers.mail.url, MAIL_FROM: 'Collecte <rappels@collecte.test>' });

    const subscribe = (app: FastifyInstance, s: CalendarScenario, email: string, remoteAddress = '198.51.100.7', deviceId = `device-${randomUUID()}`) =>
      app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        remoteAddress,
        payload: { deviceId, cityId: s.cityId, placeId: s.placeId, channel: 'EMAIL', email },
      });

    it('counts `+tag` and case variants of an address as one mailbox, whatever the domain', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: mailEnv() });
      const scenario = await insertCalendarScenario(database.db);
      const before = peers.mail.received.length;
      const statuses: number[] = [];
      // From as many IPs as requests: only the mailbox's budget is at stake.
      for (const [i, email] of MAILBOX_VARIANTS.entries()) statuses.push((await subscribe(app, scenario, email, `198.51.100.${10 + i}`)).statusCode);
      assert.deepEqual(statuses, [201, 201, 201, 201, 201, 429, 429]);
      assertTooMany(await subscribe(app, scenario, 'jeanne+encore@exemple.fr', '198.51.100.99'));
      assert.equal(peers.mail.received.length, before + 5, 'five confirmation e-mails into the one mailbox');
      // Another mailbox, even one whose name starts alike, on another domain, has its own budget.
      assert.equal((await subscribe(app, scenario, 'jeanne+1@autre.example', '198.51.100.50')).statusCode, 201);
      assert.equal((await subscribe(app, scenario, 'jeannette@exemple.fr', '198.51.100.51')).statusCode, 201);
    });

    it('bounds the confirmation e-mails one client IP may have sent, whatever the addresses', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: { ...mailEnv(), REMINDER_CONFIRMATIONS_PER_IP: '3' } });
      const scenario = await insertCalendarScenario(database.db);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await subscribe(app, scenario, `voisin-${i}@exemple.fr`, '203.0.113.20')).statusCode);
      assert.deepEqual(statuses, [201, 201, 201, 429, 429]);
      assertTooMany(await subscribe(app, scenario, 'encore-un@exemple.fr', '203.0.113.20'));
      assert.equal((await subscribe(app, scenario, 'voisin-9@exemple.fr', '203.0.113.21')).statusCode, 201, 'another IP has its own budget');
    });

    const shared = kind === 'postgres' && process.env.REDIS_URL;
    it(
      'shares both budgets between two instances on one PostgreSQL and one Redis',
      { skip: !shared && 'needs DATABASE_URL and REDIS_URL (two instances sharing one database and one Redis)' },
      async (t: TestContext) => {
        const url = process.env.REDIS_URL!;
        const prefix = `collecte-test:${randomUUID()}:`;
        t.after(() => deleteKeys(url, prefix));
        const database = await createTestDatabase('postgres');
        // What is tested is the sharing: a loaded machine must not turn a slow Redis answer into a count in memory.
        const env = { ...mailEnv(), REDIS_URL: url, REDIS_KEY_PREFIX: prefix, REDIS_WAIT_MS: '10000', REMINDER_CONFIRMATIONS_PER_IP: '4' };
        const { app: one } = await buildTestApp(t, 'postgres', { env, database });
        const { app: two } = await buildTestApp(t, 'postgres', { env, database });
        // After both instances have closed (hooks run in the order they are registered).
        t.after(() => database.close());
        const scenario = await insertCalendarScenario(database.db);

        const perMailbox: number[] = [];
        for (const [i, email] of MAILBOX_VARIANTS.entries()) {
          perMailbox.push((await subscribe(i % 2 ? two : one, scenario, email, `198.51.100.${10 + i}`)).statusCode);
        }
        assert.deepEqual(perMailbox, [201, 201, 201, 201, 201, 429, 429]);

        const perIp: number[] = [];
        for (let i = 0; i < 6; i++) perIp.push((await subscribe(i % 2 ? two : one, scenario, `partage-${i}@exemple.fr`, '203.0.113.30')).statusCode);
        assert.deepEqual(perIp, [201, 201, 201, 201, 429, 429]);
        assertTooMany(await subscribe(two, scenario, 'partage-9@exemple.fr', '203.0.113.30'));
      },
    );
  });
}
