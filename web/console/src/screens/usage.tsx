// The assistant's language-model usage (GET /chat/usage): requests and tokens per day, as SVG bar charts with tables.
import { get } from '../api.ts';
import { BarChart } from '../chart.tsx';
import { lastDays, type UsageRow } from '../chat-types.ts';
import { DateField } from '../date-field.tsx';
import { setQuery } from '../location.ts';
import type { ScreenProps } from '../screens.ts';
import { Loaded, Title, useResource } from '../ui.tsx';
import { frenchDate } from './place-text.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Every day from `from` through `to` (so that quiet days show as empty bars). */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = new Date(`${from}T12:00:00Z`); d <= new Date(`${to}T12:00:00Z`) && days.length < 366; d = new Date(d.getTime() + 86_400_000)) {
    days.push(d.toISOString().slice(0, 10));
  }
  return days;
}

export default function Usage({ query }: ScreenProps) {
  const fallback = lastDays(30);
  const from = DAY.test(query.get('du') ?? '') ? query.get('du')! : fallback.from;
  const to = DAY.test(query.get('au') ?? '') ? query.get('au')! : fallback.to;
  const resource = useResource(`${from}/${to}`, () => get<UsageRow[]>(`/chat/usage?from=${from}&to=${to}`));
  return (
    <section>
      <Title text="Consommation de l’assistant">Consommation de l’assistant</Title>
      <p class="muted">Appels au modèle de langage et jetons consommés par jour (heure de Paris), pour vos groupes.</p>
      <div class="filters">
        <DateField label="Du" value={from} onInput={(v) => DAY.test(v) && setQuery('du', v)} />
        <DateField label="Au" value={to} onInput={(v) => DAY.test(v) && setQuery('au', v)} />
      </div>
      <Loaded resource={resource} what="de la consommation">
        {(rows) => {
          const byDay = new Map<string, { requests: number; tokens: number }>();
          for (const r of rows) {
            const d = byDay.get(r.day) ?? { requests: 0, tokens: 0 };
            d.requests += r.requests;
            d.tokens += r.promptTokens + r.completionTokens;
            byDay.set(r.day, d);
          }
          const days = daysBetween(from, to);
          const label = (day: string) => frenchDate(day, { year: false }).replace(/^\S+ /, '');
          const short = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;
          if (rows.length === 0) return <p class="muted">Aucun appel au modèle de langage sur cette période.</p>;
          return (
            <>
              <BarChart title="Requêtes par jour" unit="requêtes" bars={days.map((d) => ({ label: label(d), short: short(d), value: byDay.get(d)?.requests ?? 0 }))} />
              <BarChart title="Jetons par jour" unit="jetons" color="#1d4ed8" bars={days.map((d) => ({ label: label(d), short: short(d), value: byDay.get(d)?.tokens ?? 0 }))} />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
