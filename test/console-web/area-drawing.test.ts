// Drawing a place's area in headless Chromium: clicks on the plan make the vertices (north up, east right), the last
// one undone, the ring closed into the GeoJSON field, saved as the Polygon the admin API then answers.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, PASSWORD, checkA11y, createAgent, logIn, newAgentContext, openBrowser, shoot, startConsoleServer } from '../helpers/console-browser.ts';

interface PublicCity {
  wasteCollectionPlaces: { id: string }[];
}

interface AdminPlace {
  id: string;
  area: { type: string; coordinates: number[][][] } | null;
  attachedLocations: { latitude: number; longitude: number }[];
}

for (const kind of browserDatabaseKinds()) {
  describe(`console area drawing in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 180_000 }, () => {
    it('draws a polygon by clicking, undoes a vertex, closes it and saves it as the place’s area', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'sig@brest.fr', name: 'Erwan Quéré', permissions: ['CITIES'] });
      const groups = (await (await fetch(`${server.origin}/public/city-groups`)).json()) as { cities: { id: string; name: string }[] }[];
      const cityId = groups.flatMap((g) => g.cities).find((c) => c.name === 'Brest')!.id;
      const city = (await (await fetch(`${server.origin}/public/cities/${cityId}`)).json()) as PublicCity;
      const place = city.wasteCollectionPlaces[0];
      const login = await fetch(`${server.origin}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'sig@brest.fr', password: PASSWORD }),
      });
      const { accessToken } = (await login.json()) as { accessToken: string };
      const adminGet = async <T>(path: string) => (await (await fetch(server.origin + path, { headers: { authorization: `Bearer ${accessToken}` } })).json()) as T;
      // The plan is fitted to the other places' areas and locations and to this place's area: its middle is the middle of their box.
      const places = (await adminGet<{ data: AdminPlace[] }>(`/admin/cities/${cityId}/places?pageSize=100`)).data;
      const located = places.flatMap((p) => [...(p.area?.coordinates[0] ?? []), ...(p.id === place.id ? [] : p.attachedLocations.map((l) => [l.longitude, l.latitude]))]);
      const lons = located.map((l) => l[0]);
      const lats = located.map((l) => l[1]);
      const middle = [(Math.min(...lons) + Math.max(...lons)) / 2, (Math.min(...lats) + Math.max(...lats)) / 2];
      const span = Math.max(Math.max(...lons) - Math.min(...lons), Math.max(...lats) - Math.min(...lats));

      const browser = await openBrowser(t);
      const page = await (await newAgentContext(browser)).newPage();
      await logIn(page, server.origin, 'sig@brest.fr', undefined, `/console/secteurs/${place.id}`);
      await page.getByRole('button', { name: 'Renommer ou changer la zone' }).click();
      const plan = page.getByRole('img', { name: 'Plan de la commune pour dessiner la zone' });
      await plan.waitFor();
      const box = (await plan.boundingBox())!;
      const click = (fx: number, fy: number) => plan.click({ position: { x: box.width * fx, y: box.height * fy } });

      // The place's area is on the plan, closed: clicks add nothing until it is cleared.
      await page.getByRole('status').filter({ hasText: /^Polygone fermé de \d+ sommets/ }).waitFor();
      // A polygon pasted in the GeoJSON field (the keyboard's way) is drawn as it is.
      const triangle = { type: 'Polygon', coordinates: [[middle, [middle[0] + span / 4, middle[1]], [middle[0], middle[1] + span / 4], middle]] };
      await page.getByLabel('Zone (GeoJSON)').fill(JSON.stringify(triangle));
      await page.getByRole('status').filter({ hasText: 'Polygone fermé de 3 sommets' }).waitFor();
      await page.getByRole('button', { name: 'Effacer le dessin' }).click();
      await page.getByRole('status').filter({ hasText: 'Cliquez sur le plan pour placer le premier sommet.' }).waitFor();
      // North-west, north-east, a stray click undone, south-east, south-west.
      await click(0.3, 0.3);
      await click(0.7, 0.3);
      await click(0.9, 0.9);
      await page.getByRole('status').filter({ hasText: '3 sommets placés.' }).waitFor();
      await page.getByRole('button', { name: 'Annuler le dernier point' }).click();
      await page.getByRole('status').filter({ hasText: '2 sommets placés : il en faut au moins 3.' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Fermer le polygone' }).isDisabled(), true);
      await click(0.7, 0.7);
      await click(0.3, 0.7);
      await page.getByRole('button', { name: 'Fermer le polygone' }).click();
      await page.getByRole('status').filter({ hasText: 'Polygone fermé de 4 sommets' }).waitFor();
      await checkA11y(page, 'area drawing');
      await shoot(page, 'area-drawing', plan);

      const field = JSON.parse(await page.getByLabel('Zone (GeoJSON)').inputValue()) as { type: string; coordinates: [number, number][][] };
      assert.equal(field.type, 'Polygon');
      const ring = field.coordinates[0];
      assert.equal(ring.length, 5);
      assert.deepEqual(ring[4], ring[0]);
      const [nw, ne, se, sw] = ring;
      assert.ok(nw[0] < ne[0] && sw[0] < se[0], 'west is left');
      assert.ok(nw[1] > sw[1] && ne[1] > se[1], 'north is up');
      // Clicked around the plan's middle: the drawing's middle is the middle of that box (a click is a pixel).
      const drawnMiddle = [0, 1].map((axis) => ring.slice(0, 4).reduce((sum, p) => sum + p[axis], 0) / 4);
      assert.ok(Math.abs(drawnMiddle[0] - middle[0]) < span * 0.02, `longitude ${drawnMiddle[0]} near ${middle[0]}`);
      assert.ok(Math.abs(drawnMiddle[1] - middle[1]) < span * 0.02, `latitude ${drawnMiddle[1]} near ${middle[1]}`);

      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Secteur enregistré.' }).waitFor();
      await page.getByText('Zone d’un polygone.').waitFor();
      // The admin API answers the area as drawn.
      assert.deepEqual((await adminGet<{ area: unknown }>(`/admin/places/${place.id}`)).area, { type: 'Polygon', coordinates: [ring] });
    });
  });
}
