// « Signaler un problème » (/signaler): the request types of the commune's group by category, then the form of the
// one chosen (/signaler?type=<code>&placeId=…), pre-filled from the address the calendar, the points screen or the
// assistant built (docs/api.md, resident requests).
import { Link, useFromLocation } from '../../shared/router.tsx';
import { currentCityId } from '../store.ts';
import type { RequestType } from '../types.ts';
import { cityWithTypes, PREFILL_KEYS, reportPath, type ReportPrefill } from '../requests.ts';
import { Loading, NeedCity, Problem, Title, useResource } from '../ui.tsx';
import { lazy } from '../lazy.tsx';

/** A type's form, loaded once a type is chosen: the list of types (the request widget's first screen) ships without it. */
const ReportForm = lazy(() => import('./report-form.tsx').then((m) => m.ReportForm));

const CATEGORIES: { key: RequestType['category']; label: string }[] = [
  { key: 'COLLECTE', label: 'Collecte' },
  { key: 'BAC', label: 'Bacs' },
  { key: 'POINT_APPORT', label: 'Points d’apport' },
  { key: 'PROPRETE', label: 'Propreté' },
  { key: 'ENCOMBRANTS', label: 'Encombrants' },
  { key: 'AUTRE', label: 'Autres demandes' },
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the address pre-fills; an id that is not a UUID is dropped rather than sent. */
function readPrefill(): ReportPrefill {
  const query = new URLSearchParams(location.search);
  const prefill: ReportPrefill = {};
  for (const key of PREFILL_KEYS) {
    const value = query.get(key)?.trim();
    if (!value) continue;
    if (key === 'type' || key === 'date' || UUID.test(value)) prefill[key] = key === 'type' || key === 'date' ? value : value.toLowerCase();
  }
  return prefill;
}

export function Report() {
  const search = useFromLocation(() => location.search);
  const prefill = readPrefill();
  const cityId = prefill.cityId ?? currentCityId();
  const data = useResource(cityId && `report:${cityId}`, () => cityWithTypes(cityId!));
  if (!cityId) {
    return (
      <section>
        <Title text="Signaler un problème">Signaler un problème</Title>
        <NeedCity what="les demandes que vous pouvez faire" />
      </section>
    );
  }
  if (data.loading) return <Loading what="des demandes possibles" />;
  if (data.error != null || !data.data) return <Problem error={data.error} retry={data.reload} />;
  const { city, types } = data.data;
  const type = prefill.type ? types.find((t) => t.code === prefill.type) : undefined;
  // The key renews the form when the address names another type or pre-fills something else.
  if (type) return <ReportForm key={search} city={city} type={type} prefill={prefill} />;

  // Carried over to the chosen type's form: what the calendar or the points screen knew.
  const carried = { cityId: prefill.cityId, placeId: prefill.placeId, wasteTypeId: prefill.wasteTypeId, date: prefill.date, recyclingPointId: prefill.recyclingPointId };
  return (
    <section>
      <Title text="Signaler un problème">
        Signaler un problème <span class="subtitle">{city.name}</span>
      </Title>
      {prefill.type && (
        <p class="notice" role="status">
          Cette demande n’est pas proposée à {city.name}. Choisissez ci-dessous celle qui convient.
        </p>
      )}
      {types.length === 0 ? (
        <p class="card">Aucune demande ne peut encore être faite en ligne à {city.name}.</p>
      ) : (
        <>
          <p class="lead">Que voulez-vous signaler ou demander{'\u00a0'}? Le service de collecte vous répondra.</p>
          {CATEGORIES.filter((c) => types.some((t) => t.category === c.key)).map((c) => (
            <div key={c.key} class="report-category">
              <h2 id={`category-${c.key}`}>{c.label}</h2>
              <ul class="choices" aria-labelledby={`category-${c.key}`}>
                {types
                  .filter((t) => t.category === c.key)
                  .map((t) => (
                    <li key={t.code}>
                      <Link href={reportPath({ ...carried, type: t.code })}>
                        <strong>{t.name}</strong>{' '}
                        {t.description && <span class="muted">{t.description}</span>}
                      </Link>
                    </li>
                  ))}
              </ul>
            </div>
          ))}
        </>
      )}
      <p>
        <Link href="/mes-demandes">Suivre mes demandes</Link>
      </p>
    </section>
  );
}
