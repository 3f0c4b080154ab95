// A commune's challenges (permission CHALLENGES) with their pass mark, and under a challenge's form its badge and its
// series of quiz questions: three lists drawn from their specs.
import { currentUser, get, getAll, holds, type Page } from '../api.ts';
import { CrudSection } from '../crud/crud-section.tsx';
import type { ResourceSpec } from '../crud/spec.ts';
import { SelectField } from '../form-fields.tsx';
import { setQuery } from '../location.ts';
import type { ScreenProps } from '../screens.ts';
import type { Badge, Challenge, CityGroup, QuizQuestion, Serie } from '../types.ts';
import { Loaded, Title, useResource } from '../ui.tsx';
import type { City as PublicCity, CityGroup as PublicGroup } from '../../../shared/types.ts';

const challengeSpec = (cityId: string): ResourceSpec<Challenge> => ({
  key: `challenge:${cityId}`,
  noun: { label: 'Défi', the: 'le défi' },
  caption: 'Défis de la commune',
  listUrl: `/admin/cities/${cityId}/challenges`,
  itemUrl: (id) => `/admin/challenges/${id}`,
  fields: [
    { name: 'name', label: 'Nom', required: true, maxLength: 200 },
    { name: 'description', label: 'Description', kind: 'long', maxLength: 2000 },
    {
      name: 'passingScore',
      label: 'Note de réussite (%)',
      kind: 'integer',
      short: true,
      initial: 60,
      empty: 60,
      help: 'Le badge est gagné avec un meilleur score égal ou supérieur à cette note (60\u00a0% par défaut).',
    },
    { name: 'order', label: 'Position', kind: 'integer', short: true, initial: 0, empty: 0 },
    { name: 'enabled', label: 'Proposé aux habitants', kind: 'boolean', initial: true },
  ],
  columns: [
    'name',
    { label: 'Note de réussite', cell: (c) => `${c.passingScore}\u00a0%` },
    { label: 'État', cell: (c) => (c.enabled ? 'Proposé' : 'Désactivé') },
  ],
  nameOf: (c) => c.name,
  addLabel: 'Ajouter un défi',
  empty: 'Aucun défi pour cette commune.',
});

/** A challenge's badge: at most one (the API answers 409 to a second). */
const badgeSpec = (challengeId: string): ResourceSpec<Badge> => ({
  key: `badge:${challengeId}`,
  noun: { label: 'Badge', the: 'le badge' },
  caption: 'Badge du défi',
  listUrl: `/admin/challenges/${challengeId}/badges`,
  itemUrl: (id) => `/admin/badges/${id}`,
  fields: [
    { name: 'name', label: 'Nom du badge', required: true, maxLength: 200 },
    { name: 'description', label: 'Description du badge', kind: 'long', maxLength: 2000, help: 'Ce que l’habitant a réussi, par exemple «\u00a0A réussi le défi des bases du tri\u00a0».' },
    { name: 'icon', label: 'Icône', maxLength: 200, help: 'Nom d’une icône Material Design (par exemple medal-outline, trophy-outline).' },
    { name: 'imageUrl', label: 'Adresse de l’image', kind: 'url', maxLength: 2000, help: 'Une adresse https, ou vide.' },
  ],
  columns: ['name', 'icon'],
  nameOf: (b) => b.name,
  addLabel: 'Donner un badge au défi',
  empty: 'Ce défi ne donne pas de badge.',
  max: 1,
});

const serieSpec = (challengeId: string, questions: Pick<QuizQuestion, 'id' | 'material'>[]): ResourceSpec<Serie> => ({
  key: `serie:${challengeId}`,
  noun: { label: 'Série', the: 'la série', feminine: true },
  caption: 'Séries du défi',
  listUrl: `/admin/challenges/${challengeId}/series`,
  itemUrl: (id) => `/admin/series/${id}`,
  fields: [
    { name: 'name', label: 'Nom de la série', required: true, maxLength: 200 },
    { name: 'description', label: 'Description de la série', kind: 'long', maxLength: 2000 },
    { name: 'order', label: 'Position de la série', kind: 'integer', initial: 0, empty: 0, help: 'Les plus petites d’abord.' },
    {
      name: 'quizQuestionIds',
      label: 'Questions de la série',
      kind: 'multi',
      choices: questions.map((q) => ({ value: q.id, label: q.material })),
      help: 'Les questions du quiz de la commune que la série pose, dans l’ordre du quiz.',
    },
  ],
  columns: ['order', 'name', { label: 'Questions', cell: (s) => s.quizQuestionIds.length }],
  nameOf: (s) => s.name,
  addLabel: 'Ajouter une série',
  empty: 'Aucune série\u00a0: le défi ne pose aucune question.',
});

/** The communes of the agent's groups (the public list: CHALLENGES alone does not read the admin cities). */
async function loadCities(): Promise<{ id: string; name: string }[]> {
  const mine = new Set((await get<Page<CityGroup>>('/admin/city-groups?pageSize=100')).data.map((g) => g.id));
  const groups = await get<PublicGroup[]>('/public/city-groups');
  return groups.filter((g) => mine.has(g.id)).flatMap((g) => g.cities);
}

/** The commune's quiz questions a serie may ask: the admin list with CITIES, else the published commune's. */
async function loadQuestions(cityId: string): Promise<Pick<QuizQuestion, 'id' | 'material'>[]> {
  if (holds(currentUser(), 'CITIES')) return getAll<QuizQuestion>(`/admin/cities/${cityId}/quiz-questions`);
  return (await get<PublicCity>(`/public/cities/${cityId}`)).quizQuestions;
}

export default function Challenges({ query }: ScreenProps) {
  const cities = useResource('cities', loadCities);
  const cityId = query.get('commune');
  const questions = useResource(cityId, () => loadQuestions(cityId!));
  return (
    <section>
      <Title text="Défis">Défis</Title>
      <Loaded resource={cities} what="des communes">
        {(list) => (
          <SelectField
            label="Commune"
            value={cityId ?? ''}
            options={[{ value: '', label: 'Choisissez une commune' }, ...list.map((c) => ({ value: c.id, label: c.name }))]}
            onChange={(id) => (setQuery('edit', null), setQuery('commune', id || null))}
          />
        )}
      </Loaded>
      {cityId && (
        <CrudSection
          key={cityId}
          spec={challengeSpec(cityId)}
          param="edit"
          below={(id) => (
            <>
              <CrudSection key={`badge:${id}`} heading="Badge du défi" spec={badgeSpec(id)} />
              {/* The series wait for the quiz questions they may ask, drawn as their checkboxes. */}
              <Loaded resource={questions} what="des questions du quiz">
                {(list) => <CrudSection key={`serie:${id}`} heading="Séries du défi" spec={serieSpec(id, list)} />}
              </Loaded>
            </>
          )}
        />
      )}
    </section>
  );
}
