// How the console merges two agents' edits of one record after a 412 (web/console/src/merge.ts): the fields only one
// side changed are taken from that side, a field both changed to different values is a clash the agent settles.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fieldChanges, mergeVersions, unresolved } from '../../web/console/src/merge.ts';

interface Point {
  name: string;
  address: string;
  hours: string;
  materials: string[];
}

const base: Point = { name: 'Déchèterie du Spernot', address: 'Rue du Spernot', hours: 'Lu-Sa', materials: ['verre'] };

describe('merging two agents’ edits', () => {
  const table: { case: string; mine: Partial<Point>; theirs: Partial<Point>; choices?: Partial<Record<keyof Point, 'mine' | 'theirs'>>; merged: Partial<Point>; clashes: (keyof Point)[] }[] = [
    { case: 'nobody changed anything', mine: {}, theirs: {}, merged: {}, clashes: [] },
    { case: 'only I changed a field', mine: { address: '1 rue A' }, theirs: {}, merged: { address: '1 rue A' }, clashes: [] },
    { case: 'only they changed a field', mine: {}, theirs: { name: 'Spernot' }, merged: { name: 'Spernot' }, clashes: [] },
    { case: 'each changed another field', mine: { address: '1 rue A' }, theirs: { name: 'Spernot' }, merged: { address: '1 rue A', name: 'Spernot' }, clashes: [] },
    { case: 'both set a field to the same value', mine: { hours: 'Lu-Ve' }, theirs: { hours: 'Lu-Ve' }, merged: { hours: 'Lu-Ve' }, clashes: [] },
    { case: 'a clash, mine kept', mine: { hours: 'Lu-Ve' }, theirs: { hours: 'Ma-Sa' }, choices: { hours: 'mine' }, merged: { hours: 'Lu-Ve' }, clashes: ['hours'] },
    { case: 'a clash, theirs kept', mine: { hours: 'Lu-Ve' }, theirs: { hours: 'Ma-Sa' }, choices: { hours: 'theirs' }, merged: { hours: 'Ma-Sa' }, clashes: ['hours'] },
    {
      case: 'a list is one value: both changed it differently',
      mine: { materials: ['verre', 'piles'] },
      theirs: { materials: ['verre', 'papier'] },
      choices: { materials: 'theirs' },
      merged: { materials: ['verre', 'papier'] },
      clashes: ['materials'],
    },
    {
      case: 'a choice for a field that is no clash changes nothing',
      mine: { address: '1 rue A' },
      theirs: { name: 'Spernot' },
      choices: { address: 'theirs', name: 'mine' },
      merged: { address: '1 rue A', name: 'Spernot' },
      clashes: [],
    },
  ];
  for (const row of table) {
    it(row.case, () => {
      const mine = { ...base, ...row.mine };
      const theirs = { ...base, ...row.theirs };
      const changes = fieldChanges(base, mine, theirs);
      assert.deepEqual(changes.filter((c) => c.clash).map((c) => c.field), row.clashes);
      assert.deepEqual(changes.filter((c) => c.mine).map((c) => c.field).sort(), Object.keys(row.mine).sort());
      assert.deepEqual(changes.filter((c) => c.theirs).map((c) => c.field).sort(), Object.keys(row.theirs).sort());
      assert.deepEqual(mergeVersions(base, mine, theirs, row.choices), { ...base, ...row.merged });
    });
  }

  it('asks for a choice for each clash, and refuses to merge without one', () => {
    const mine = { ...base, name: 'A', hours: 'Lu-Ve' };
    const theirs = { ...base, name: 'B', hours: 'Ma-Sa' };
    const changes = fieldChanges(base, mine, theirs);
    assert.deepEqual(unresolved(changes, {}), ['name', 'hours']);
    assert.deepEqual(unresolved(changes, { name: 'theirs' }), ['hours']);
    assert.throws(() => mergeVersions(base, mine, theirs, { name: 'theirs' }));
    assert.deepEqual(mergeVersions(base, mine, theirs, { name: 'theirs', hours: 'mine' }), { ...base, name: 'B', hours: 'Lu-Ve' });
  });
});
