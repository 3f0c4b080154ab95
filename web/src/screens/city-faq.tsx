// A city group's frequently asked questions (docs/api.md, frequently asked questions) at the foot of the commune's
// screen and of a place's calendar: each question a disclosure its answer opens under, in the group's order.
import { get } from '../api.ts';
import type { FaqEntry } from '../types.ts';
import { useResource } from '../ui.tsx';

/** An answer's paragraphs: a blank line starts one (docs/api.md); a single line break stays within it. */
function paragraphs(answer: string): string[] {
  return answer.split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p !== '');
}

/**
 * Nothing while the questions load, when they cannot be read (offline: the calendar itself is what matters) or when
 * the group wrote none.
 */
export function CityFaq({ cityId }: { cityId: string }) {
  const faq = useResource(`faq:${cityId}`, () => get<FaqEntry[]>(`/public/cities/${cityId}/faq`));
  const entries = faq.data ?? [];
  if (entries.length === 0) return null;
  return (
    <section class="faq screen-only" aria-labelledby="faq-title">
      <h2 id="faq-title">Questions fréquentes</h2>
      {entries.map((entry) => (
        <details key={entry.id} class="card">
          <summary>{entry.question}</summary>
          {paragraphs(entry.answer).map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </details>
      ))}
    </section>
  );
}
