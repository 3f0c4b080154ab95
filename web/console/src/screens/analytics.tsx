// The city group's analytics (GET /admin/analytics): the most searched words, the searches that found nothing, the
// chat's topics and its unanswered questions over a date range, summed over the days, as charts and tables.
import { get, type Page } from '../api.ts';
import { RankChart } from '../chart.tsx';
import { lastDays, type Analytics, type AnalyticsDay } from '../chat-types.ts';
import { DateField } from '../date-field.tsx';
import { SelectField } from '../form-fields.tsx';
import { setQuery } from '../location.ts';
import type { ScreenProps } from '../screens.ts';
import { Table } from '../table.tsx';
import type { CityGroup } from '../types.ts';
import { Loaded, Title, useResource } from '../ui.tsx';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The counts of a list of each day, summed over the range, most first, each named by `label` (a search as citizens
 * typed it, « capsule de café », rather than its folded form).
 */
function total<K extends string>(
  days: AnalyticsDay[],
  pick: (d: AnalyticsDay) => ({ count: number } & Record<K, unknown>)[],
  key: K,
  label: (value: string) => string = (value) => value,
) {
  const sums = new Map<string, number>();
  for (const day of days) for (const item of pick(day)) sums.set(String(item[key]), (sums.get(String(item[key])) ?? 0) + item.count);
  return [...sums].map(([value, count]) => ({ label: label(value), value: count })).sort((a, b) => b.value - a.value || a.label.localeCompare(b.label, 'fr'));
}

function Counts({ title, rows, what, empty }: { title: string; rows: { label: string; value: number }[]; what: string; empty: string }) {
  return (
    <section>
      <h2>{title}</h2>
      <Table caption={title} rows={rows.slice(0, 20)} rowKey={(r) => r.label} empty={empty} columns={[{ label: what, cell: (r) => r.label }, { label: 'Nombre', cell: (r) => r.value, class: 'num' }]} />
    </section>
  );
}

export default function Analytics({ query }: ScreenProps) {
  const fallback = lastDays(30);
  const from = DAY.test(query.get('du') ?? '') ? query.get('du')! : fallback.from;
  const to = DAY.test(query.get('au') ?? '') ? query.get('au')! : fallback.to;
  const groups = useResource('groups', () => get<Page<CityGroup>>('/admin/city-groups?pageSize=100').then((p) => p.data));
  const groupId = query.get('groupe') ?? groups.data?.[0]?.id ?? null;
  const resource = useResource(groupId && `${groupId}/${from}/${to}`, () =>
    get<Analytics>(`/admin/analytics?cityGroupId=${groupId}&from=${from}&to=${to}`),
  );
  return (
    <section>
      <Title text="Analyses">Analyses des recherches et du chat</Title>
      <Loaded resource={groups} what="des collectivités">
        {(list) => (
          <div class="filters">
            {list.length > 1 && (
              <SelectField label="Collectivité" value={groupId ?? ''} options={list.map((g) => ({ value: g.id, label: g.name }))} onChange={(v) => setQuery('groupe', v)} />
            )}
            <DateField label="Du" value={from} onInput={(v) => DAY.test(v) && setQuery('du', v)} />
            <DateField label="Au" value={to} onInput={(v) => DAY.test(v) && setQuery('au', v)} />
          </div>
        )}
      </Loaded>
      {groupId && (
        <Loaded resource={resource} what="des analyses">
          {({ days, queryLabels }) => {
            const typed = (query: string) => queryLabels[query] ?? query;
            const searched = total(days, (d) => d.topQueries, 'query', typed);
            const notFound = total(days, (d) => d.notFound, 'query', typed);
            return (
              <>
                <RankChart title="Mots les plus recherchés" unit="recherches" bars={searched.slice(0, 10)} />
                <div class="two">
                  <Counts title="Mots les plus recherchés" what="Recherche" rows={searched} empty="Aucune recherche sur cette période." />
                  <Counts title="Recherches sans résultat" what="Recherche" rows={notFound} empty="Toutes les recherches ont trouvé une réponse." />
                  <Counts title="Sujets du chat" what="Sujet" rows={total(days, (d) => d.chatTopics, 'topic')} empty="Aucun sujet relevé pour l’instant." />
                  <Counts title="Questions sans réponse" what="Question" rows={total(days, (d) => d.unanswered, 'question')} empty="Aucune question restée sans réponse." />
                </div>
              </>
            );
          }}
        </Loaded>
      )}
    </section>
  );
}
