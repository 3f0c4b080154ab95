// How a field spec of the console's plain lists (web/console/src/crud/spec.ts) turns a record into a form and a form
// into the API's body, and how it says a value and what became of a record.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { emptyForm, said, shown, toApiValue, toBody, toForm, toFormValue, type ResourceSpec } from '../../web/console/src/crud/spec.ts';

interface Location {
  id: string;
  name: string;
  reference: string;
  latitude: number | null;
  open: boolean;
  kind: string | null;
  tags: string[];
  since: string | null;
}

const spec: ResourceSpec<Location> = {
  key: 'location:1',
  noun: { label: 'Lieu rattaché', the: 'le lieu rattaché' },
  caption: 'Lieux',
  listUrl: '/admin/places/1/attached-locations',
  itemUrl: (id) => `/admin/attached-locations/${id}`,
  fields: [
    { name: 'name', label: 'Nom', required: true },
    { name: 'reference', label: 'Référence', empty: '' },
    { name: 'latitude', label: 'Latitude', kind: 'number' },
    { name: 'open', label: 'Ouvert', kind: 'boolean', initial: true },
    { name: 'kind', label: 'Genre', kind: 'select', choices: [{ value: 'CENTRE', label: 'Déchèterie' }] },
    { name: 'tags', label: 'Étiquettes', kind: 'multi', choices: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }] },
    { name: 'since', label: 'Depuis', kind: 'date' },
  ],
  columns: ['name'],
  nameOf: (l) => l.name,
  addLabel: 'Ajouter un lieu',
  empty: 'Aucun lieu.',
};

describe('a field spec of the console', () => {
  it('makes a new record’s form from each field’s initial value, else empty', () => {
    assert.deepEqual(emptyForm(spec), { name: '', reference: '', latitude: '', open: true, kind: '', tags: [], since: '' });
  });

  it('reads a record into its form and sends the form back as the API takes it', () => {
    const record: Location = { id: '1', name: 'Place de la Liberté', reference: '', latitude: 48.3904, open: false, kind: 'CENTRE', tags: ['b'], since: '2026-12-01T12:00:00.000Z' };
    const form = toForm(spec, record);
    assert.deepEqual(form, { name: 'Place de la Liberté', reference: '', latitude: '48,3904', open: false, kind: 'CENTRE', tags: ['b'], since: '2026-12-01' });
    assert.deepEqual(toBody(spec, form), { name: 'Place de la Liberté', reference: '', latitude: 48.3904, open: false, kind: 'CENTRE', tags: ['b'], since: '2026-12-01T12:00:00.000Z' });
  });

  it('sends an empty field as its `empty` (null by default), a French decimal as a number, anything else as typed', () => {
    const [name, reference, latitude] = spec.fields;
    assert.equal(toApiValue(name, '  '), null);
    assert.equal(toApiValue(reference, ''), '');
    assert.equal(toApiValue(latitude, ' -4,4862 '), -4.4862);
    assert.equal(toApiValue(latitude, 'ouest'), 'ouest', 'the API refuses it and names the field');
    assert.equal(toApiValue({ label: 'Position', kind: 'integer', empty: 0 }, ''), 0);
    assert.equal(toFormValue(latitude, null), '');
  });

  it('says a value as the agent reads it, and what became of a record, in French', () => {
    const [, , latitude, open, kind, tags, since] = spec.fields;
    assert.equal(shown(latitude, -4.4862), '-4,4862');
    assert.equal(shown(open, true), 'Oui');
    assert.equal(shown(kind, 'CENTRE'), 'Déchèterie');
    assert.equal(shown(tags, ['a', 'b']), 'A, B');
    assert.equal(shown(tags, []), '—');
    assert.equal(shown(since, '2026-12-01'), 'mardi 1er décembre 2026');
    assert.equal(said(spec.noun, 'Place de la Liberté', 'créé'), 'Lieu rattaché «\u00a0Place de la Liberté\u00a0» créé.');
    assert.equal(said({ label: 'Question', the: 'la question', feminine: true }, 'Verre', 'supprimé'), 'Question «\u00a0Verre\u00a0» supprimée.');
  });
});
