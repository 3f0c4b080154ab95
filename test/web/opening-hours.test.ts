// Open-now computed on the citizens' device when the points come from the copy kept offline (web/src/opening-hours.ts):
// for the specs it reads, the same `openNow` and `nextChange` as the server's evaluation with the OpenStreetMap library
// (src/domain/opening-hours.ts, what GET /public/cities/:cityId/recycling-points answers), instant by instant across
// the winter/summer hours, the clock changes and public holidays; null (not checked) for what it does not read.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openingStateOnDevice } from '../../web/src/opening-hours.ts';
import { openingHoursSpecProblem, openingStateAt } from '../../src/domain/opening-hours.ts';

const ZONE = 'Europe/Paris';

/** The demo's specs (demo/bundle.json) and other shapes of the subset the device reads. */
const READ = [
  'Mo-Fr 09:00-12:00,14:00-18:00; Sa 09:00-18:00; Nov-Feb Mo-Fr 09:00-12:00,14:00-17:30; Nov-Feb Sa 09:00-17:30; PH off',
  'Mo-Su 07:00-22:00',
  '24/7',
  'Mo-Sa 08:30-12:00,13:30-19:00; PH 09:00-12:00',
  'Jun-Aug Mo-Su 10:00-19:00',
  'Tu,Th 13:30-17:00; We 00:00-24:00',
  'Mo-Fr 08:00-12:00, Sa 09:00-12:00',
  'Fr-Mo 10:00-16:00; Dec off',
];

/** Windows of days holding a season's change, both clock changes, public holidays, a year's end. */
const WINDOWS = ['2026-02-25', '2026-03-27', '2026-05-12', '2026-10-23', '2026-12-22'];
const STEP_MS = 23 * 60_000;
const WINDOW_MS = 6 * 86_400_000;

describe('open-now on the device, from the spec the copy kept', () => {
  it('answers as the server does for every spec it reads, every 23 minutes through five windows of the year', () => {
    const differences: string[] = [];
    for (const spec of READ) {
      assert.equal(openingHoursSpecProblem(spec), null, `the server accepts ${spec}`);
      for (const start of WINDOWS) {
        const from = Date.parse(`${start}T00:00:00Z`);
        for (let t = from; t < from + WINDOW_MS; t += STEP_MS) {
          const at = new Date(t);
          const device = openingStateOnDevice(spec, at);
          const server = openingStateAt(spec, at, ZONE, 'FR');
          const expected = { openNow: server.openNow, nextChange: server.nextChange?.toISOString() ?? null };
          // Unchecked only where a city of Alsace-Moselle would read otherwise (the public API does not say which).
          if (device === null && JSON.stringify(server) !== JSON.stringify(openingStateAt(spec, at, ZONE, 'FR-ALSACE-MOSELLE'))) continue;
          if (JSON.stringify(device) !== JSON.stringify(expected)) {
            differences.push(`${spec} at ${at.toISOString()}: device ${JSON.stringify(device)}, server ${JSON.stringify(expected)}`);
          }
        }
      }
    }
    assert.deepEqual(differences.slice(0, 10), []);
  });

  it('turns a copy saved « Fermé · ouvre à 9 h » at 7:00 into « Ouvert · ferme à 12 h » at 10:30 on a winter Monday', () => {
    const spec = READ[0];
    assert.deepEqual(openingStateOnDevice(spec, new Date('2026-11-23T06:00:00Z')), { openNow: false, nextChange: '2026-11-23T08:00:00.000Z' });
    assert.deepEqual(openingStateOnDevice(spec, new Date('2026-11-23T09:30:00Z')), { openNow: true, nextChange: '2026-11-23T11:00:00.000Z' });
  });

  it('leaves unchecked what it does not read, and `PH` on the days only Alsace-Moselle keeps', () => {
    for (const spec of ['Mo-Fr 09:00-12:00 "sur rendez-vous"', 'Mo-Fr sunrise-sunset', 'Fr 22:00-02:00', 'Mo-Fr 09:00-12:00 || "sur rendez-vous"', 'week 01-10 Mo 09:00-12:00', 'SH off', 'Lu-Ve 9h-18h']) {
      assert.equal(openingStateOnDevice(spec, new Date('2026-11-23T09:30:00Z')), null, spec);
    }
    // Good Friday 2027 and 26 December: a holiday in Alsace-Moselle only, which the public API does not say.
    for (const noon of ['2027-03-26T11:00:00Z', '2026-12-26T11:00:00Z']) {
      assert.equal(openingStateOnDevice('Mo-Sa 09:00-18:00; PH off', new Date(noon)), null, noon);
      assert.notEqual(openingStateOnDevice('Mo-Sa 09:00-18:00', new Date(noon)), null, noon);
    }
  });
});
