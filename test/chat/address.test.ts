import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { importBundleFile } from '../../src/bundle/import.ts';
import { DEMO_BUNDLE_PATH } from '../../src/demo/load.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { buildTestApp, fixedClock } from '../helpers/app.ts';

/**
 * "J'habite 12 rue Jean Jaurès" in the chat sets the conversation's place through the street rules, as
 * GET /public/places/lookup reads them (docs/assistant.md and docs/api.md, from an address to a collection place), on the demo data: Brest's Rue Jean Jaurès is
 * Centre-ville et Recouvrance's from 1 to 99 and Lambézellec et Saint-Martin's from 100.
 */

const NOW = '2026-11-24T10:00:00.000Z';
const NBSP = '\u00a0';

for (const kind of testDatabaseKinds()) {
  describe(`chat: an address sets the conversation's place (${kind})`, () => {
    let app: FastifyInstance;
    let brestId: string;
    const places = new Map<string, string>();
    const cleanups: (() => Promise<void>)[] = [];
    let device = 0;

    before(async () => {
      const ctx = { after: (fn: () => Promise<void>) => void cleanups.push(fn) };
      const built = await buildTestApp(ctx, kind, { clock: fixedClock(NOW) });
      app = built.app;
      const mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-chat-address-'));
      cleanups.push(() => fs.rm(mediaDir, { recursive: true, force: true }));
      await importBundleFile(built.database, DEMO_BUNDLE_PATH, { mediaDir, now: new Date(NOW) });
      const brest = (await app.inject('/public/cities')).json().find((c: { name: string }) => c.name === 'Brest');
      brestId = brest.id;
      for (const place of brest.wasteCollectionPlaces) places.set(place.name, place.id);
    });
    after(async () => {
      for (const fn of cleanups.reverse()) await fn();
    });

    const devices = new Map<string, string>();
    async function open(): Promise<string> {
      const deviceId = `address-${process.pid}-${++device}`;
      const res = await app.inject({ method: 'POST', url: '/public/chat/conversations', payload: { deviceId, cityId: brestId } });
      assert.equal(res.statusCode, 201, res.body);
      devices.set(res.json().id, deviceId);
      return res.json().id;
    }
    async function say(id: string, content: string): Promise<string> {
      const res = await app.inject({ method: 'POST', url: `/public/chat/conversations/${id}/messages`, payload: { content } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().content;
    }
    async function placeOf(id: string): Promise<string | null> {
      const res = await app.inject({ method: 'GET', url: `/public/chat/conversations/${devices.get(id)}` });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.find((c: { id: string }) => c.id === id).placeId;
    }

    it('sets the place whose rule holds the number, with or without the type word written in full, a typo aside', async () => {
      const cases: [string, string][] = [
        ['j’habite 12 rue Jean Jaurès', 'Centre-ville et Recouvrance'],
        ['J’habite au 150, rue jean jaures', 'Lambézellec et Saint-Martin'],
        ['je vis au 151 bis r. Jean-Jaurès', 'Lambézellec et Saint-Martin'],
        ['mon adresse : 8 rue Jean Jaurés 29200 Brest', 'Centre-ville et Recouvrance'],
      ];
      for (const [message, sector] of cases) {
        const id = await open();
        const reply = await say(id, message);
        assert.ok(reply.startsWith(`C’est noté : secteur ${sector}.`), `${message}: ${reply}`);
        assert.equal(await placeOf(id), places.get(sector), message);
      }
    });

    it('answers the question asked with the address, for the address’s place', async () => {
      const id = await open();
      const reply = await say(id, 'Quand passent les ordures ménagères ? J’habite au 150 rue Jean Jaurès.');
      assert.equal(await placeOf(id), places.get('Lambézellec et Saint-Martin'));
      assert.match(reply, /Lambézellec et Saint-Martin/);
      assert.match(reply, /ordures ménagères/i);
    });

    it('asks for the number of a street shared between sectors, then sets the place from it', async () => {
      const id = await open();
      const reply = await say(id, 'j’habite rue Jean Jaurès');
      assert.equal(await placeOf(id), null);
      assert.ok(reply.startsWith(`«${NBSP}Rue Jean Jaurès${NBSP}» est partagée entre plusieurs secteurs de collecte`), reply);
      assert.match(reply, new RegExp(`numéros de${NBSP}1 à${NBSP}99${NBSP}: secteur Centre-ville et Recouvrance`));
      assert.match(reply, new RegExp(`numéros à partir de${NBSP}100${NBSP}: secteur Lambézellec et Saint-Martin`));
      const noted = await say(id, '12 rue Jean Jaurès');
      assert.ok(noted.startsWith('C’est noté : secteur Centre-ville et Recouvrance.'), noted);
      assert.equal(await placeOf(id), places.get('Centre-ville et Recouvrance'));
    });

    it('leaves the place alone when the street is not one of the city’s', async () => {
      const id = await open();
      await say(id, 'j’habite 12 rue Jean Jaurès');
      await say(id, 'et ma sœur habite 4 rue des Inventées à Paris');
      assert.equal(await placeOf(id), places.get('Centre-ville et Recouvrance'));
    });
  });
}
