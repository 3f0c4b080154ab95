// « Types de demandes »: a city group's catalogue of request types (docs/console.md, Demandes), inactive ones too.
// The plain part of a type (name, category, what a request must give, its target) is drawn from its spec
// (crud/); its extra questions, a list of their own, are edited in a form written by hand (request-type-fields.tsx),
// opened as `?questions=<id>` while the type's own form is closed, so that each save stands on the ETag it read.
import { useState } from 'preact/hooks';
import { get } from '../api.ts';
import { CrudSection } from '../crud/crud-section.tsx';
import type { FieldSpec, ResourceSpec } from '../crud/spec.ts';
import { quoted } from '../french.ts';
import type { ScreenProps } from '../screens.ts';
import type { AdminRequestType, CityGroup } from '../types.ts';
import { Breadcrumbs, Loaded, Status, Title, useResource } from '../ui.tsx';
import { TypeFieldsEditor } from '../requests/request-type-fields.tsx';
import { CATEGORY_LABELS, REQUIREMENT_LABELS } from '../requests/request-text.ts';
import { navigate } from '../../../shared/router.tsx';
import '../requests/requests.css';

const REQUIREMENTS = Object.entries(REQUIREMENT_LABELS).map(([value, label]) => ({ value, label }));

const requirement = (name: FieldSpec<AdminRequestType>['name'], label: string, initial: string, help?: string): FieldSpec<AdminRequestType> => ({
  name, label, kind: 'select', required: true, choices: REQUIREMENTS, initial, short: true, help,
});

/** Opens the type's questions (`questions`) or its own form (`edit`), never both. */
function openForm(param: 'edit' | 'questions', id: string | null) {
  const url = new URL(location.href);
  url.searchParams.delete('edit');
  url.searchParams.delete('questions');
  if (id) url.searchParams.set(param, id);
  navigate(url.pathname + url.search);
}

const typeSpec = (groupId: string): ResourceSpec<AdminRequestType> => ({
  key: `requestType:${groupId}`,
  noun: { label: 'Type de demande', the: 'le type de demande' },
  caption: 'Types de demandes de la collectivité',
  listUrl: `/admin/city-groups/${groupId}/request-types`,
  itemUrl: (id) => `/admin/request-types/${id}`,
  fields: [
    { name: 'name', label: 'Nom', required: true, maxLength: 120, help: 'Ce que l’habitant choisit dans le formulaire.' },
    { name: 'code', label: 'Code', required: true, maxLength: 64, short: true, help: 'Lettres minuscules, chiffres et tirets (depot-sauvage)\u00a0: le nom stable du type pour les applications.' },
    { name: 'category', label: 'Catégorie', kind: 'select', required: true, short: true, initial: 'AUTRE', choices: Object.entries(CATEGORY_LABELS).map(([value, label]) => ({ value, label })) },
    { name: 'description', label: 'Description', kind: 'long', maxLength: 500, help: 'Une phrase qui aide l’habitant à choisir ce type.' },
    { name: 'active', label: 'Proposé aux habitants', kind: 'boolean', initial: true },
    requirement('place', 'Secteur', 'OPTIONAL'),
    requirement('position', 'Position ou adresse', 'OPTIONAL'),
    requirement('wasteType', 'Type de déchets', 'OPTIONAL'),
    requirement('photo', 'Photos', 'OPTIONAL'),
    requirement('date', 'Jour concerné', 'NONE'),
    requirement('recyclingPoint', 'Point d’apport', 'NONE'),
    {
      name: 'targetHours', label: 'Délai cible (heures)', kind: 'integer', required: true, initial: 120, short: true,
      help: 'Au-delà, une demande encore ouverte est en retard (48 pour deux jours, 168 pour une semaine).',
    },
  ],
  columns: [
    'name',
    'code',
    'category',
    { label: 'Proposé', cell: (t) => (t.active ? 'Oui' : 'Non') },
    { label: 'Délai cible', cell: (t) => `${t.targetHours}\u00a0h` },
    {
      label: 'Questions',
      cell: (t) => (
        <button type="button" class="link-button" onClick={() => openForm('questions', t.id)}>
          {t.fields.length === 0 ? 'Aucune' : `${t.fields.length}\u00a0question${t.fields.length > 1 ? 's' : ''}`} · modifier
          <span class="visually-hidden"> les questions de {t.name}</span>
        </button>
      ),
    },
  ],
  nameOf: (t) => t.name,
  addLabel: 'Ajouter un type de demande',
  empty: 'Aucun type de demande pour cette collectivité.',
});

export default function RequestTypesScreen({ params, query }: ScreenProps) {
  const { cityGroupId } = params;
  const group = useResource(`group:${cityGroupId}`, () => get<CityGroup>(`/admin/city-groups/${cityGroupId}`));
  const questions = query.get('questions');
  const [status, setStatus] = useState<string | null>(null);
  return (
    <Loaded resource={group} what="de la collectivité">
      {(g) => (
        <section>
          <Breadcrumbs items={[{ href: '/console/demandes', label: 'Demandes' }]} />
          <Title text={`Types de demandes – ${g.name}`}>Types de demandes – {g.name}</Title>
          <p class="muted">
            Ce que les habitants de {g.name} peuvent signaler ou demander, et ce que chaque demande doit indiquer. Un type déjà utilisé par une demande ne
            peut pas être supprimé&nbsp;: décochez {quoted('Proposé aux habitants')} pour le retirer du formulaire.
          </p>
          {status && !questions && <Status>{status}</Status>}
          {questions && !query.get('edit') && (
            <TypeFieldsEditor
              key={questions}
              typeId={questions}
              onDone={(said) => {
                setStatus(said);
                openForm('questions', null);
              }}
            />
          )}
          <CrudSection key={`${cityGroupId}:${questions ?? ''}`} spec={typeSpec(cityGroupId)} param="edit" />
        </section>
      )}
    </Loaded>
  );
}
