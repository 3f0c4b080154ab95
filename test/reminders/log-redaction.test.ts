import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { buildApp } from '../../src/app.ts';
import { redactUrl } from '../../src/logger.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { insertCalendarScenario } from '../helpers/calendar-fixtures.ts';
import { reminderPeers } from '../helpers/reminder-peers.ts';

/**
 * A device id lists (and deletes) that device's subscriptions; a link's token confirms or deletes
 * a subscription without the device. Both are bearer secrets: the log, read by operators and kept for long, must
 * hold neither, while still saying which route a request went to.
 */

const DEVICE = 'device-reminder-log-secret-7373';

describe('reminder URLs in the log', () => {
  it('redact the device id of the subscription list and the token of the e-mails’ links', () => {
    const cases: [string, string][] = [
      [`/public/reminders/subscriptions/${DEVICE}`, '/public/reminders/subscriptions/[redacted]'],
      [`/public/reminders/%73ubscriptions/${DEVICE}`, '/public/reminders/subscriptions/[redacted]'],
      ['/public/reminders/subscriptions/5b0f?deviceId=abc', '/public/reminders/subscriptions/[redacted]?deviceId=[redacted]'],
      ['/public/reminders/confirm?token=eyJzIjoi.c2ln', '/public/reminders/confirm?token=[redacted]'],
      ['/public/reminders/unsubscribe?x=1&token=eyJzIjoi.c2ln', '/public/reminders/unsubscribe?x=1&token=[redacted]'],
      ['/public/reminders/unsubscribe?%74oken=eyJzIjoi.c2ln', '/public/reminders/unsubscribe?%74oken=[redacted]'],
      ['/public/reminders/subscriptions', '/public/reminders/subscriptions'],
      ['/public/reminders/config', '/public/reminders/config'],
    ];
    for (const [url, logged] of cases) assert.equal(redactUrl(url), logged, url);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`the log of reminder requests (${kind})`, () => {
    const peers = reminderPeers();

    it('never holds a device id or a link’s token, and still names each route', async (t) => {
      const lines: string[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
      const database = await createTestDatabase(kind);
      const env = { SMTP_URL: peers.mail.url, MAIL_FROM: 'Collecte <rappels@collecte.test>' };
      const app = await buildApp({ config: testConfig(env), database, logger });
      t.after(async () => {
        await app.close();
        await database.close();
      });
      const scenario = await insertCalendarScenario(database.db);

      const address = `journal-${kind}@exemple.fr`;
      const created = await app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        payload: { deviceId: DEVICE, cityId: scenario.cityId, placeId: scenario.placeId, channel: 'EMAIL', email: address },
      });
      assert.equal(created.statusCode, 201, created.body);
      const mail = peers.mail.received.filter((m) => m.to.includes(address)).at(-1)!;
      const confirm = /\/public\/reminders\/confirm\?token=(\S+)/.exec(mail.text)!;
      const unsubscribe = /\/public\/reminders\/unsubscribe\?token=(\S+)/.exec(mail.text)!;
      const secrets = { device: DEVICE, confirmToken: decodeURIComponent(confirm[1]), unsubscribeToken: decodeURIComponent(unsubscribe[1]) };

      const requests = [
        { method: 'GET' as const, url: `/public/reminders/subscriptions/${DEVICE}` },
        { method: 'GET' as const, url: confirm[0], headers: { accept: 'application/json' } },
        { method: 'GET' as const, url: unsubscribe[0], headers: { accept: 'text/html' } },
        { method: 'POST' as const, url: unsubscribe[0], headers: { accept: 'application/json' } },
        { method: 'DELETE' as const, url: `/public/reminders/subscriptions/${created.json().id}?deviceId=${DEVICE}` },
      ];
      for (const request of requests) assert.ok((await app.inject(request)).statusCode < 500, request.url);

      const log = lines.join('');
      for (const [name, secret] of Object.entries(secrets)) assert.ok(!log.includes(secret), `the ${name} is in the log`);
      const urls = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'incoming request').map((l) => `${l.req.method} ${l.req.url}`);
      for (const expected of [
        'GET /public/reminders/subscriptions/[redacted]',
        'GET /public/reminders/confirm?token=[redacted]',
        'GET /public/reminders/unsubscribe?token=[redacted]',
        'POST /public/reminders/unsubscribe?token=[redacted]',
        'DELETE /public/reminders/subscriptions/[redacted]?deviceId=[redacted]',
      ]) {
        assert.ok(urls.includes(expected), `${expected} not in:\n${urls.join('\n')}`);
      }
    });
  });
}
