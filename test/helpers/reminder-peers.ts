import { after, before } from 'node:test';
import { startPushService, type PushService } from './push-service.ts';
import { startMailServer, type MailServer } from './smtp-server.ts';

/**
 * The reminders' real protocol peers for one suite: a push service that checks VAPID and decrypts each payload, and
 * an SMTP server that records each e-mail, started before the suite's tests and closed after them.
 */
export function reminderPeers(): { push: PushService; mail: MailServer } {
  const peers = {} as { push: PushService; mail: MailServer };
  before(async () => {
    peers.push = await startPushService();
    peers.mail = await startMailServer();
  });
  after(async () => {
    await peers.push.close();
    await peers.mail.close();
  });
  return peers;
}
