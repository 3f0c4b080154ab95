import { it } from 'node:test';
import assert from 'node:assert/strict';
import { frenchTime as frenchClockTime, frenchMomentFrom } from '../../src/kernel/french.ts';

const NBSP = '\u00a0';

it('writes a time the French way: « 9 h », « 17 h 30 », « 0 h 05 », with no-break spaces', () => {
  assert.equal(frenchClockTime(9, 0), `9${NBSP}h`);
  assert.equal(frenchClockTime(17, 30), `17${NBSP}h${NBSP}30`);
  assert.equal(frenchClockTime(0, 5), `0${NBSP}h${NBSP}05`);
});

it('says an instant from now on the city’s wall clock: today, tomorrow, else the weekday and date', () => {
  const paris = 'Europe/Paris';
  const saturdayEvening = new Date('2026-11-28T17:00:00.000Z');
  assert.equal(frenchMomentFrom(new Date('2026-11-28T21:00:00.000Z'), saturdayEvening, paris), `aujourd’hui à 22${NBSP}h`);
  assert.equal(frenchMomentFrom(new Date('2026-11-29T08:30:00.000Z'), saturdayEvening, paris), `demain à 9${NBSP}h${NBSP}30`);
  assert.equal(frenchMomentFrom(new Date('2026-11-30T08:00:00.000Z'), saturdayEvening, paris), `lundi 30 novembre à 9${NBSP}h`);
  // 23:30 UTC on 28 November is already Sunday 00:30 in Paris: tomorrow there.
  assert.equal(frenchMomentFrom(new Date('2026-11-28T23:30:00.000Z'), saturdayEvening, paris), `demain à 0${NBSP}h${NBSP}30`);
  // Summer time: 29 March 2026 at 09:00 in Paris is 07:00 UTC.
  assert.equal(frenchMomentFrom(new Date('2026-03-29T07:00:00.000Z'), new Date('2026-03-28T12:00:00.000Z'), paris), `demain à 9${NBSP}h`);
});
