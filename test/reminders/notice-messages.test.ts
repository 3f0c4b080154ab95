import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { noticeMail, noticeMessage, pushPayload, PUSH_BODY_MAX } from '../../src/reminders/messages.ts';

/** What a service notice says to subscribers (docs/api.md, collections that move and service notices), by push and by e-mail. */

describe('service notice messages', () => {
  const notice = { id: '11111111-1111-4111-8111-111111111111', title: 'Collecte décalée', severity: 'INFO' as const };

  it('titles a notice by its severity and tags it by its id', () => {
    assert.deepEqual(noticeMessage({ ...notice, body: 'Texte.' }), { title: 'Avis – Collecte décalée', body: 'Texte.', tag: `avis-${notice.id}` });
    assert.equal(noticeMessage({ ...notice, body: 'Texte.', severity: 'WARNING' }).title, 'Avis important – Collecte décalée');
  });

  it('cuts a long body in the push payload, never in the e-mail, and fits the 4 KiB a push service takes', () => {
    // The worst a 1000-character body can be once in JSON: characters JSON escapes as six bytes.
    const body = '\u0001'.repeat(400) + 'é'.repeat(600);
    const message = { ...noticeMessage({ ...notice, title: 'T'.repeat(200), body }), url: `https://collecte.example/communes/${notice.id}/${notice.id}` };
    const payload = JSON.parse(pushPayload(message));
    assert.equal([...payload.body].length, PUSH_BODY_MAX);
    assert.ok(payload.body.endsWith('…'));
    assert.ok(Buffer.byteLength(pushPayload(message)) < 3993, 'under the plaintext a 4096-byte aes128gcm record holds');
    assert.deepEqual({ ...payload, body: undefined }, { ...message, body: undefined });
    const short = { ...message, body: 'Court.' };
    assert.equal(pushPayload(short), JSON.stringify(short), 'a short body as it is');

    const mail = noticeMail({ ...message, body: 'Premier paragraphe.\n\nSecond <b>paragraphe</b>,\nsur deux lignes.' }, 'https://collecte.example/u');
    assert.equal(mail.subject, message.title);
    assert.match(mail.html, /<p>Premier paragraphe\.<\/p><p>Second &lt;b&gt;paragraphe&lt;\/b&gt;,<br>sur deux lignes\.<\/p>/);
    assert.match(mail.text, /^Premier paragraphe\.\n\nSecond <b>paragraphe<\/b>,\nsur deux lignes\.\n/);
  });
});
