// « Demandes »: the queue of the residents' requests of the agent's groups (docs/console.md, Demandes), oldest first,
// filtered in the address (group, status, type, commune, assignee, overdue) and paged; kept current by the requests'
// stream (GET /admin/requests/events, live.ts): a changed request is updated in place, a new one that fits the filters
// is added, one that no longer fits goes. Without the stream the queue works as it is, reloaded by hand.
import { useEffect, useState } from 'preact/hooks';
import { currentUser, get, getAll, holds, type Page } from '../api.ts';
import { Checkbox, SelectField } from '../form-fields.tsx';
import { quoted } from '../french.ts';
import { listenTo, REQUEST_EVENTS } from '../live.ts';
import { useLocation } from '../location.ts';
import type { ScreenProps } from '../screens.ts';
import { Table } from '../table.tsx';
import type { AdminRequest, AdminRequestType, City, CityGroup, RequestStatus } from '../types.ts';
import { Loaded, Status, Title, useResource } from '../ui.tsx';
import { REQUEST_STATUS_LABELS, REQUEST_STATUSES, ageText, frenchInstant } from '../requests/request-text.ts';
import { RequestStatusTag } from '../requests/request-status.tsx';
import { Link, navigate } from '../../../shared/router.tsx';
import '../requests/requests.css';

const PAGE_SIZE = 50;

/** The query string's names for the filters, in the agents' words. */
const PARAMS = { group: 'groupe', status: 'statut', type: 'type', city: 'commune', assignee: 'attribuee', overdue: 'retard', page: 'page' } as const;

interface Options {
  groups: Pick<CityGroup, 'id' | 'name'>[];
  types: { code: string; name: string; groupId: string }[];
  cities: { id: string; name: string; groupId: string }[];
}

/** The communes of the groups: the admin list for agents holding CITIES, else the published communes. */
async function loadCities(groups: Pick<CityGroup, 'id'>[]): Promise<Options['cities']> {
  if (holds(currentUser(), 'CITIES')) {
    const per = await Promise.all(groups.map(async (g) => (await getAll<City>(`/admin/city-groups/${g.id}/cities`)).map((c) => ({ id: c.id, name: c.name, groupId: g.id }))));
    return per.flat();
  }
  const published = await get<{ id: string; name: string; cityGroup: { id: string } | null }[]>('/public/cities').catch(() => []);
  const ids = new Set(groups.map((g) => g.id));
  return published.filter((c) => c.cityGroup && ids.has(c.cityGroup.id)).map((c) => ({ id: c.id, name: c.name, groupId: c.cityGroup!.id }));
}

async function loadOptions(): Promise<Options> {
  const groups = (await get<Page<CityGroup>>('/admin/city-groups?pageSize=100')).data.map((g) => ({ id: g.id, name: g.name }));
  const [types, cities] = await Promise.all([
    Promise.all(groups.map(async (g) => (await getAll<AdminRequestType>(`/admin/city-groups/${g.id}/request-types`)).map((t) => ({ code: t.code, name: t.name, groupId: g.id })))),
    loadCities(groups),
  ]);
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, 'fr');
  return { groups, types: types.flat().sort(byName), cities: cities.sort(byName) };
}

/** The filters as the address holds them. */
function filtersOf(query: URLSearchParams) {
  const status = query.get(PARAMS.status) ?? '';
  return {
    group: query.get(PARAMS.group) ?? '',
    status: (REQUEST_STATUSES as string[]).includes(status) ? (status as RequestStatus) : '',
    type: query.get(PARAMS.type) ?? '',
    city: query.get(PARAMS.city) ?? '',
    mine: query.get(PARAMS.assignee) === 'moi',
    overdue: query.get(PARAMS.overdue) === '1',
    page: Math.max(1, Number.parseInt(query.get(PARAMS.page) ?? '1', 10) || 1),
  };
}
type Filters = ReturnType<typeof filtersOf>;

/** Changes some parameters of the address at once (a new filter goes back to the first page). */
function setParams(patch: Partial<Record<keyof typeof PARAMS, string | null>>) {
  const url = new URL(location.href);
  for (const [name, value] of Object.entries(patch) as [keyof typeof PARAMS, string | null][]) {
    if (value === null || value === '') url.searchParams.delete(PARAMS[name]);
    else url.searchParams.set(PARAMS[name], value);
  }
  if (!('page' in patch)) url.searchParams.delete(PARAMS.page);
  url.searchParams.delete('efface');
  navigate(url.pathname + url.search);
}

/** Whether a request belongs in the queue as filtered (the API's own filters, from the request's shape). */
function fits(r: AdminRequest, f: Filters, me: string): boolean {
  return (
    (!f.group || r.cityGroupId === f.group) &&
    (!f.status || r.status === f.status) &&
    (!f.type || r.typeCode === f.type) &&
    (!f.city || r.cityId === f.city) &&
    (!f.mine || r.assignedTo === me) &&
    (!f.overdue || r.overdue)
  );
}

/** Oldest first, as GET /admin/requests orders them. */
const oldestFirst = (a: AdminRequest, b: AdminRequest) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Where a request is: its commune, then its place or the address the resident typed. */
export const whereText = (r: Pick<AdminRequest, 'cityName' | 'placeName' | 'address'>) =>
  [r.cityName, r.placeName ? `secteur ${quoted(r.placeName)}` : r.address].filter(Boolean).join(', ');

export default function RequestsScreen({ query }: ScreenProps) {
  const options = useResource('request-filters', loadOptions);
  return (
    <section>
      <Title text="Demandes">Demandes des habitants</Title>
      {query.get('efface') && <Status>Demande {query.get('efface')} effacée, avec ses photos et son historique.</Status>}
      <Loaded resource={options} what="des filtres">
        {(o) => <Queue options={o} query={query} />}
      </Loaded>
    </section>
  );
}

function Queue({ options, query }: { options: Options; query: URLSearchParams }) {
  const user = currentUser()!;
  const { path } = useLocation();
  const f = filtersOf(query);
  const api = new URLSearchParams({ page: String(f.page), pageSize: String(PAGE_SIZE) });
  if (f.group) api.set('cityGroupId', f.group);
  if (f.status) api.set('status', f.status);
  if (f.type) api.set('typeCode', f.type);
  if (f.city) api.set('cityId', f.city);
  if (f.mine) api.set('assignedTo', user.id);
  if (f.overdue) api.set('overdue', 'true');
  const key = api.toString();
  const resource = useResource(key, () => get<Page<AdminRequest>>(`/admin/requests?${key}`));
  const [page, setPage] = useState<Page<AdminRequest> | null>(null);
  const [news, setNews] = useState('');
  const [live, setLive] = useState<'connecting' | 'on' | 'off'>('connecting');
  useEffect(() => setPage(resource.data), [resource.data]);

  useEffect(
    () =>
      listenTo(REQUEST_EVENTS, ({ event, data }) => {
        if (event === 'ready') return setLive('on');
        if (event === 'unavailable') return setLive('off');
        if (event === 'reset') return resource.reload();
        if (event !== 'request') return;
        const changed = data as AdminRequest;
        const belongs = fits(changed, f, user.id);
        setPage((current) => {
          if (!current) return current;
          const known = current.data.some((r) => r.id === changed.id);
          if (known) {
            const data = belongs ? current.data.map((r) => (r.id === changed.id ? changed : r)) : current.data.filter((r) => r.id !== changed.id);
            return { ...current, data, meta: { ...current.meta, total: current.meta.total - (belongs ? 0 : 1) } };
          }
          if (!belongs) return current;
          // A request the queue did not show: a new one, which goes last (oldest first), so on the last page only.
          const total = current.meta.total + 1;
          setNews(`Nouvelle demande ${changed.reference}\u00a0: ${changed.typeName}, ${changed.cityName}.`);
          const last = f.page >= current.meta.totalPages;
          const data = last && current.data.length < PAGE_SIZE ? [...current.data, changed].sort(oldestFirst) : current.data;
          return { ...current, data, meta: { ...current.meta, total, totalPages: Math.max(1, Math.ceil(total / PAGE_SIZE)) } };
        });
      }),
    [key],
  );

  const groupTypes = options.types.filter((t) => !f.group || t.groupId === f.group);
  const typeChoices = [...new Map(groupTypes.map((t) => [t.code, t.name])).entries()].map(([value, label]) => ({ value, label }));
  const cityChoices = options.cities.filter((c) => !f.group || c.groupId === f.group).map((c) => ({ value: c.id, label: c.name }));
  const groupName = (id: string) => options.groups.find((g) => g.id === id)?.name ?? '';

  return (
    <>
      <p class="muted">
        Les demandes et signalements des habitants, la plus ancienne d’abord.{' '}
        {options.groups.map((g, i) => (
          <span key={g.id}>
            {i > 0 && ' · '}
            <Link href={`/console/collectivites/${g.id}/types-de-demandes`}>
              Types de demandes{options.groups.length > 1 ? ` de ${g.name}` : <span class="visually-hidden"> de {g.name}</span>}
            </Link>
          </span>
        ))}
      </p>
      {/* The pickup calendars, reached here by agents holding REQUESTS without CITIES (the commune screens are CITIES'). */}
      {cityChoices.length > 0 && (
        <details class="bulky-links">
          <summary>Enlèvement des encombrants, par commune</summary>
          <ul>
            {cityChoices.map((c) => (
              <li key={c.value}>
                <Link href={`/console/communes/${c.value}/encombrants`}>{c.label}</Link>
              </li>
            ))}
          </ul>
        </details>
      )}
      {/* A group, not a form: each filter applies as it changes, there is nothing to submit. */}
      <div class="filters" role="group" aria-label="Filtres des demandes">
        {options.groups.length > 1 && (
          <SelectField
            label="Collectivité"
            value={f.group}
            options={[{ value: '', label: 'Toutes' }, ...options.groups.map((g) => ({ value: g.id, label: g.name }))]}
            onChange={(v) => setParams({ group: v, type: null, city: null })}
          />
        )}
        <SelectField
          label="Statut"
          value={f.status}
          options={[{ value: '', label: 'Tous' }, ...REQUEST_STATUSES.map((s) => ({ value: s, label: REQUEST_STATUS_LABELS[s] }))]}
          onChange={(v) => setParams({ status: v })}
        />
        <SelectField label="Type" value={f.type} options={[{ value: '', label: 'Tous' }, ...typeChoices]} onChange={(v) => setParams({ type: v })} />
        {cityChoices.length > 1 && (
          <SelectField label="Commune" value={f.city} options={[{ value: '', label: 'Toutes' }, ...cityChoices]} onChange={(v) => setParams({ city: v })} />
        )}
        <SelectField
          label="Attribuée à"
          value={f.mine ? 'moi' : ''}
          options={[{ value: '', label: 'Tout le monde' }, { value: 'moi', label: 'Moi' }]}
          onChange={(v) => setParams({ assignee: v })}
        />
        <Checkbox label="En retard seulement" checked={f.overdue} onChange={(on) => setParams({ overdue: on ? '1' : null })} />
      </div>
      <p class="visually-hidden" role="status">
        {news}
      </p>
      <Loaded resource={{ ...resource, data: page }} what="des demandes">
        {(p) => (
          <>
            <p class="muted">
              {p.meta.total === 0 ? 'Aucune demande' : `${p.meta.total}\u00a0demande${p.meta.total > 1 ? 's' : ''}`} ·{' '}
              {live === 'on' ? 'mise à jour en direct' : live === 'off' ? 'sans mise à jour en direct (rechargez la page pour voir les nouvelles)' : 'connexion au direct…'}
            </p>
            <Table
              caption="Demandes des habitants, la plus ancienne d’abord"
              rows={p.data}
              rowKey={(r) => r.id}
              empty="Aucune demande pour ces filtres."
              columns={[
                {
                  label: 'Référence',
                  cell: (r) => (
                    <Link href={`/console/demandes/${r.id}`}>
                      <span class="reference">{r.reference}</span>
                      <span class="visually-hidden">, {r.typeName}</span>
                    </Link>
                  ),
                },
                { label: 'Type', cell: (r) => r.typeName },
                { label: 'Lieu', cell: (r) => (options.groups.length > 1 && !f.group ? `${whereText(r)} (${groupName(r.cityGroupId)})` : whereText(r)) },
                { label: 'Reçue', cell: (r) => <time dateTime={r.createdAt} title={frenchInstant(r.createdAt)}>{ageText(r.createdAt)}</time> },
                { label: 'Statut', cell: (r) => <RequestStatusTag request={r} /> },
                { label: 'Attribuée à', cell: (r) => (r.assignedTo === null ? '—' : r.assignedTo === user.id ? 'moi' : (r.assignedToName ?? 'un agent')) },
              ]}
            />
            {p.meta.totalPages > 1 && (
              <nav class="pager" aria-label="Pages des demandes">
                {f.page > 1 && (
                  <Link href={pageHref(path, query, f.page - 1)} rel="prev">
                    Page précédente
                  </Link>
                )}
                <span>
                  Page {f.page} sur {p.meta.totalPages}
                </span>
                {f.page < p.meta.totalPages && (
                  <Link href={pageHref(path, query, f.page + 1)} rel="next">
                    Page suivante
                  </Link>
                )}
              </nav>
            )}
          </>
        )}
      </Loaded>
    </>
  );
}

function pageHref(path: string, query: URLSearchParams, page: number): string {
  const next = new URLSearchParams(query);
  if (page === 1) next.delete(PARAMS.page);
  else next.set(PARAMS.page, String(page));
  const search = next.toString();
  return search ? `${path}?${search}` : path;
}
