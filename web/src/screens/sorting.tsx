// "Où jeter ?": a material search over the city's waste-type details and quiz materials.
import { useMemo, useState } from 'preact/hooks';
import { get } from '../api.ts';
import { currentCityId } from '../store.ts';
import { matchesAll, words } from '../text.ts';
import type { City, WasteType } from '../types.ts';
import { Loading, NeedCity, Problem, Swatch, Title, useResource } from '../ui.tsx';

interface Answer {
  key: string;
  material: string;
  description: string | null;
  instructions: string | null;
  type: WasteType;
}

function answersOf(city: City): Answer[] {
  const byId = new Map(city.wasteTypes.map((w) => [w.id, w]));
  const answers: Answer[] = city.wasteTypes.flatMap((type) =>
    type.details.map((d) => ({ key: d.id, material: d.material, description: d.description, instructions: d.instructions, type })),
  );
  const known = new Set(answers.map((a) => a.material.toLowerCase()));
  for (const q of city.quizQuestions) {
    const type = byId.get(q.correctWasteTypeId);
    if (type && !known.has(q.material.toLowerCase())) {
      known.add(q.material.toLowerCase());
      answers.push({ key: q.id, material: q.material, description: null, instructions: type.instructions, type });
    }
  }
  return answers;
}

export function WhereDoesItGo() {
  const cityId = currentCityId();
  const city = useResource(cityId && `city:${cityId}`, () => get<City>(`/public/cities/${cityId}`));
  const [query, setQuery] = useState('');
  const answers = useMemo(() => (city.data ? answersOf(city.data) : []), [city.data]);
  const found = useMemo(() => {
    const q = words(query);
    if (q.length === 0) return [];
    return answers.filter((a) => matchesAll(q, `${a.material} ${a.description ?? ''}`)).slice(0, 20);
  }, [query, answers]);

  return (
    <section>
      <Title text="Où jeter ?">Où jeter ?</Title>
      {!cityId ? (
        <NeedCity what="les consignes de tri de votre commune" />
      ) : city.loading ? (
        <Loading what="des consignes de tri" />
      ) : city.error != null || !city.data ? (
        <Problem error={city.error} retry={city.reload} />
      ) : (
        <>
          <p class="lead">Les consignes de tri à {city.data.name}. Tapez un objet ou une matière.</p>
          <form role="search" onSubmit={(e) => e.preventDefault()}>
            <label for="material-query">Objet ou matière</label>
            <input
              id="material-query"
              type="search"
              autocomplete="off"
              placeholder="Par exemple : pot de yaourt, pile, carton"
              value={query}
              onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
            />
          </form>
          <p class="visually-hidden" aria-live="polite">
            {query ? `${found.length} résultat${found.length > 1 ? 's' : ''}` : ''}
          </p>
          {query && found.length === 0 && (
            <p class="card">
              Nous n'avons pas trouvé « {query} ». Essayez un autre mot, ou en cas de doute, déposez-le en déchèterie.
            </p>
          )}
          <ul class="answers" aria-label="Où le jeter">
            {found.map((a) => (
              <li key={a.key} class="card answer" style={{ borderLeftColor: a.type.color ?? '#6b7280' }}>
                <h2>{a.material}</h2>
                <p class="verdict">
                  <Swatch color={a.type.color} /> <strong>{a.type.name}</strong>
                </p>
                {a.instructions && <p class="instructions">{a.instructions}</p>}
                {a.description && <p class="muted">{a.description}</p>}
              </li>
            ))}
          </ul>
          {!query && (
            <>
              <h2>Les bacs de {city.data.name}</h2>
              <ul class="answers">
                {city.data.wasteTypes.map((type) => (
                  <li key={type.id} class="card answer" style={{ borderLeftColor: type.color ?? '#6b7280' }}>
                    <h3>
                      <Swatch color={type.color} /> {type.name}
                    </h3>
                    {type.description && <p>{type.description}</p>}
                    {type.instructions && <p class="muted">{type.instructions}</p>}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}
