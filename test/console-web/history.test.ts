// A record's history in headless Chromium, against a real server: a place's and an exception's
// history reached from the place screen, in French (labels, days, waste types by name), and « Restaurer cette
// version » writing the old values back as a new edit (public answers follow), a 412 meanwhile going through the
// conflict panel, where the agent keeps the other agent's change and the restored one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, PASSWORD, checkA11y, createAgent, logIn, newAgentContext, openBrowser, shoot, startConsoleServer } from '../helpers/console-browser.ts';

const json = { 'content-type': 'application/json' };

interface PublicCity {
  id: string;
  wasteTypes: { id: string; name: string }[];
  wasteCollectionPlaces: { id: string; name: string }[];
}

async function tokenOf(origin: string, email: string): Promise<Record<string, string>> {
  const login = await fetch(`${origin}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: PASSWORD }) });
  assert.equal(login.status, 200);
  return { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };
}

/** An admin write as another agent would make it: read for the ETag, then PATCH with If-Match. */
async function patch(origin: string, auth: Record<string, string>, url: string, body: object): Promise<void> {
  const read = await fetch(origin + url, { headers: auth });
  const res = await fetch(origin + url, { method: 'PATCH', headers: { ...auth, ...json, 'if-match': read.headers.get('etag')! }, body: JSON.stringify(body) });
  assert.equal(res.status, 200, await res.text());
}

for (const kind of browserDatabaseKinds()) {
  describe(`console history and restore in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 300_000 }, () => {
    it('shows a place’s and an exception’s history in French and restores past versions, through a conflict when one arises', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'a@brest.fr', name: 'Agent A', permissions: ['CITIES'] });
      await createAgent(server, { email: 'b@brest.fr', name: 'Agent B', permissions: ['CITIES'] });
      const groups = (await (await fetch(`${server.origin}/public/city-groups`)).json()) as { cities: { id: string; name: string }[] }[];
      const cityId = groups.flatMap((g) => g.cities).find((c) => c.name === 'Brest')!.id;
      const publicCity = async () => (await (await fetch(`${server.origin}/public/cities/${cityId}`)).json()) as PublicCity;
      const city = await publicCity();
      const place = city.wasteCollectionPlaces[0];
      const type = city.wasteTypes[0];
      const authB = await tokenOf(server.origin, 'b@brest.fr');

      // An exception written and changed by agent B: its history says who, when, and each field in French.
      const created = await fetch(`${server.origin}/admin/places/${place.id}/exceptions`, {
        method: 'POST',
        headers: { ...authB, ...json },
        body: JSON.stringify({ kind: 'CANCEL', wasteTypeId: type.id, dateFrom: '2026-12-24T23:00:00.000Z', dateTo: null, name: 'Noël', description: null }),
      });
      assert.equal(created.status, 201, await created.clone().text());
      const exceptionId = ((await created.json()) as { id: string }).id;
      await patch(server.origin, authB, `/admin/exceptions/${exceptionId}`, { name: 'Grève', dateFrom: '2026-12-27T23:00:00.000Z' });

      const browser = await openBrowser(t);
      const a = await (await newAgentContext(browser)).newPage();
      await logIn(a, server.origin, 'a@brest.fr', PASSWORD, `/console/secteurs/${place.id}`);
      await a.getByRole('heading', { level: 1, name: place.name }).waitFor();
      await a.getByRole('link', { name: 'Historique Grève' }).click();
      await a.getByRole('heading', { level: 1, name: 'Historique de « Grève »' }).waitFor();
      const [update, creation] = [a.locator('.history > li').nth(0), a.locator('.history > li').nth(1)];
      await update.getByRole('heading', { name: /^Modification par Agent B, le / }).waitFor();
      assert.match(await update.getByRole('row', { name: /^Titre/ }).innerText(), /Titre\s+Noël\s+Grève/);
      assert.match(await update.getByRole('row', { name: /^Jour/ }).innerText(), /Jour\s+vendredi 25 décembre 2026\s+lundi 28 décembre 2026/);
      assert.match(await creation.getByRole('row', { name: /^Type de déchets/ }).innerText(), new RegExp(`Type de déchets\\s+—\\s+${type.name}`));
      assert.match(await creation.getByRole('row', { name: /^Exception/ }).innerText(), /Collecte annulée/);
      assert.equal(await a.getByRole('cell', { name: 'dateFrom' }).count(), 0, 'no raw field name');
      await update.getByText('C’est la version actuelle.').waitFor();
      await checkA11y(a, 'history');
      await shoot(a, 'history');

      // The creation's version restored: a new write, shown at the top of the history, the public calendar following.
      await creation.getByRole('button', { name: /^Restaurer cette version du / }).click();
      await a.getByRole('status').filter({ hasText: /^Version du .* restaurée\.$/ }).waitFor();
      await a.locator('.history > li').nth(2).waitFor();
      await a.locator('.history > li').first().getByRole('heading', { name: /^Modification par Agent A, le / }).waitFor();
      await a.locator('.history > li').first().getByText('C’est la version actuelle.').waitFor();
      const exception = (await (await fetch(`${server.origin}/admin/exceptions/${exceptionId}`, { headers: authB })).json()) as { name: string; dateFrom: string };
      assert.deepEqual([exception.name, exception.dateFrom], ['Noël', '2026-12-24T23:00:00.000Z']);

      // The place, renamed by A on its screen: its history holds the rename and the version from before it (the import's).
      await a.goto(`${server.origin}/console/secteurs/${place.id}?edit=secteur`);
      await a.getByLabel('Nom du secteur').fill(`${place.name} (A)`);
      await a.getByRole('button', { name: 'Enregistrer' }).click();
      await a.getByRole('heading', { level: 1, name: `${place.name} (A)` }).waitFor();
      await a.getByRole('link', { name: `Historique ${place.name} (A)` }).click();
      await a.getByRole('heading', { level: 1, name: `Historique de « ${place.name} (A) »` }).waitFor();
      assert.match(await a.getByRole('row', { name: /^Nom du secteur/ }).innerText(), new RegExp(`Nom du secteur\\s+${place.name}\\s+${place.name} \\(A\\)`));
      const original = a.locator('.history > li').filter({ hasText: 'Version d’avant le' });

      // B renames it meanwhile and changes its zone: A's restore answers 412, and the conflict asks about the name only.
      const ring = (lon: number) => [[lon, 48.39], [lon + 0.01, 48.39], [lon + 0.01, 48.4], [lon, 48.39]];
      const zone = { type: 'MultiPolygon', coordinates: [[ring(-4.5)], [ring(-4.48)]] };
      await patch(server.origin, authB, `/admin/places/${place.id}`, { name: `${place.name} (B)`, area: zone });
      await original.getByRole('button', { name: /^Restaurer cette version d’avant le / }).click();
      const conflict = a.getByRole('alert').filter({ hasText: 'Quelqu’un a modifié cet élément' });
      await conflict.waitFor();
      const name = conflict.getByRole('row', { name: /^Nom du secteur/ });
      assert.match(await name.innerText(), new RegExp(`${place.name} \\(A\\)\\s+${place.name} \\(B\\)\\s+${place.name}\\s*modifiée par vous`));
      assert.match(await conflict.getByRole('row', { name: /^Zone/ }).innerText(), /^Zone \(GeoJSON\)\s+zone d’un polygone\s+zone en 2\u00a0polygones\s+zone d’un polygone\s+la leur$/);
      await checkA11y(a, 'history conflict');
      await shoot(a, 'history-conflict', conflict);
      await name.getByRole('radio', { name: 'garder la mienne' }).check();
      await conflict.getByRole('button', { name: 'Garder leurs changements et les miens' }).click();
      await a.getByRole('status').filter({ hasText: /^Version d’avant le .* restaurée\.$/ }).waitFor();

      // The original name is back, B's zone kept; the public city follows within a second.
      let now: { name: string; area?: unknown } | undefined;
      for (let i = 0; i < 50; i++) {
        now = (await publicCity()).wasteCollectionPlaces.find((p) => p.id === place.id);
        if (now?.name === place.name) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(now?.name, place.name);
      const admin = (await (await fetch(`${server.origin}/admin/places/${place.id}`, { headers: authB })).json()) as { name: string; area: unknown };
      assert.deepEqual([admin.name, admin.area], [place.name, zone]);
    });
  });
}
