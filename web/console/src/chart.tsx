// A bar chart in plain SVG (no chart library): an image with a title and a description for screen readers, and the
// same numbers as a table beside it (the fallback, and what a keyboard or screen-reader user reads).
import { useId } from 'preact/hooks';
import './chart.css';
import { Table } from './table.tsx';

export interface Bar {
  /** The bar's name in the table (`24 novembre`). */
  label: string;
  /** Its name under the axis, where space is short (`24/11`); the label otherwise. */
  short?: string;
  value: number;
}

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { top: 12, right: 8, bottom: 44, left: 48 };

const number = (n: number) => new Intl.NumberFormat('fr-FR').format(n);

export function BarChart({ title, unit, bars, color = '#166534' }: { title: string; unit: string; bars: Bar[]; color?: string }) {
  const id = useId();
  if (bars.length === 0) return <p class="muted">{title}&nbsp;: aucune donnée sur cette période.</p>;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const step = innerW / bars.length;
  const barW = Math.max(2, Math.min(48, step * 0.7));
  const total = bars.reduce((s, b) => s + b.value, 0);
  // Names under the axis never overlap: every bar's when few, else one in `every`, each cut to the room it has.
  const every = bars.length <= 12 ? 1 : Math.ceil(bars.length / 8);
  const room = Math.max(3, Math.floor((step * every) / 7));
  const cut = (text: string) => (text.length > room ? `${text.slice(0, room - 1)}…` : text);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-t ${id}-d`}>
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>
          {`${bars.length} barres, total ${number(total)} ${unit}, maximum ${number(max)} ${unit}. Les valeurs sont dans le tableau qui suit.`}
        </desc>
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top + innerH} y2={PAD.top + innerH} stroke="#6b7280" />
        <text x={PAD.left - 6} y={PAD.top + 10} text-anchor="end" font-size="12" fill="#374151">
          {number(max)}
        </text>
        <text x={PAD.left - 6} y={PAD.top + innerH} text-anchor="end" font-size="12" fill="#374151">
          0
        </text>
        {bars.map((b, i) => {
          const h = (b.value / max) * innerH;
          const x = PAD.left + i * step + (step - barW) / 2;
          return (
            <g key={b.label}>
              <rect x={x} y={PAD.top + innerH - h} width={barW} height={h} fill={color} />
              {i % every === 0 && (
                <text x={x + barW / 2} y={HEIGHT - PAD.bottom + 16} text-anchor="middle" font-size="11" fill="#374151">
                  {cut(b.short ?? b.label)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>{title}</figcaption>
      <details>
        <summary>Voir les données de «&nbsp;{title}&nbsp;»</summary>
        <Table caption={title} rows={bars} rowKey={(b) => b.label} columns={[{ label: 'Libellé', cell: (b) => b.label }, { label: unit, cell: (b) => number(b.value), class: 'num' }]} />
      </details>
    </figure>
  );
}

/**
 * A ranking as horizontal bars in HTML (the most searched words): each name whole on its line, however long, where an
 * SVG axis would cut it; a list a screen reader reads in order, each bar's number written beside it.
 */
export function RankChart({ title, unit, bars, color = '#166534' }: { title: string; unit: string; bars: Bar[]; color?: string }) {
  if (bars.length === 0) return <p class="muted">{title}&nbsp;: aucune donnée sur cette période.</p>;
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <figure class="chart rank-chart">
      <figcaption>{title}</figcaption>
      <ol>
        {bars.map((b) => (
          <li key={b.label}>
            <span class="rank-label">{b.label}</span>
            <span class="rank-bar" aria-hidden="true">
              <span style={{ width: `${Math.max(1, (b.value / max) * 100)}%`, background: color }} />
            </span>
            <span class="num">
              {number(b.value)}
              <span class="visually-hidden"> {unit}</span>
            </span>
          </li>
        ))}
      </ol>
    </figure>
  );
}
