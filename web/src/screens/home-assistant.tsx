// « Dans Home Assistant », on the open-data page: the lines of configuration.yaml with which the Waste Collection
// Schedule integration (HACS) reads a place's calendar.ics through its generic `ics` source (its documented `args`:
// `url`, `regex`; the source's `calendar_title`; the sensors' `source_index`, `name`, `details_format`).
import { useState } from 'preact/hooks';
import { chosenPlace } from '../store.ts';
import type { City } from '../types.ts';

const NBSP = '\u00a0';

/**
 * The waste type alone, from the feed's SUMMARY (`Collecte : Emballages`, `Collecte : Emballages (reportée du 25
 * décembre)`, docs/api.md, collections that move and service notices): the integration names a collection after the regex's first group, so that a moved one
 * keeps its bin's name.
 */
const TYPE_REGEX = '^Collecte : ([^(]*[^ (])';

/** A YAML scalar: a JSON string is a YAML double-quoted one. */
const scalar = (text: string) => JSON.stringify(text);

interface YamlOptions {
  origin: string;
  cityId: string;
  place: { id: string; name: string };
  types: { id: string; name: string }[];
  /** One source (its own feed, `?wasteTypeId=`) and one sensor per bin; else one source and one sensor for all. */
  perBin: boolean;
}

/**
 * The configuration: the feed without its cancelled collections (`cancelled=false`), since the integration does not
 * read `STATUS:CANCELLED` and would show them as collections.
 */
export function homeAssistantYaml({ origin, cityId, place, types, perBin }: YamlOptions): string {
  const feed = `${origin}/public/cities/${cityId}/places/${place.id}/calendar.ics?cancelled=false`;
  const sources = perBin
    ? types.map((t) => ({ url: `${feed}&wasteTypeId=${t.id}`, title: `${t.name} – ${place.name}` }))
    : [{ url: feed, title: `Collecte – ${place.name}` }];
  const lines = ['waste_collection_schedule:', '  sources:'];
  sources.forEach((source, index) => {
    lines.push('    - name: ics', '      args:', `        url: ${scalar(source.url)}`);
    if (index === 0) lines.push('        # « Emballages » plutôt que « Collecte : Emballages (reportée du …) »');
    lines.push(`        regex: ${scalar(TYPE_REGEX)}`, `      calendar_title: ${scalar(source.title)}`);
  });
  lines.push('', 'sensor:');
  if (perBin) {
    types.forEach((t, index) => lines.push('  - platform: waste_collection_schedule', `    source_index: ${index}`, `    name: ${scalar(t.name)}`));
  } else {
    lines.push('  - platform: waste_collection_schedule', `    name: ${scalar(`Collecte ${place.name}`)}`, '    details_format: "appointment_types"');
  }
  return `${lines.join('\n')}\n`;
}

export function HomeAssistant({ city }: { city: City }) {
  const places = city.wasteCollectionPlaces;
  const chosen = chosenPlace();
  const [placeId, setPlaceId] = useState(chosen?.cityId === city.id ? chosen.placeId : places[0]?.id);
  const [perBin, setPerBin] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  const place = places.find((p) => p.id === placeId) ?? places[0];
  if (!place) return null;
  const typeIds = new Set(place.collectionDays.map((d) => d.wasteTypeId));
  const types = city.wasteTypes.filter((w) => typeIds.has(w.id)).sort((a, b) => a.name.localeCompare(b.name, 'fr'));
  const yaml = homeAssistantYaml({ origin: location.origin, cityId: city.id, place, types, perBin });

  const copy = async () => {
    try {
      // A browser may leave the write pending (no focus, a prompt): after a second, the page says how to copy instead.
      await Promise.race([navigator.clipboard.writeText(yaml), new Promise((_, reject) => setTimeout(reject, 1000))]);
      setSaid(`Configuration copiée${NBSP}: collez-la dans configuration.yaml.`);
    } catch {
      setSaid(`La copie n'a pas pu se faire${NBSP}: sélectionnez le texte ci-dessus et copiez-le.`);
    }
  };

  return (
    <section class="card home-assistant" aria-labelledby="home-assistant-title">
      <h2 id="home-assistant-title">Dans Home Assistant</h2>
      <p>
        L’intégration <a href="https://github.com/mampfes/hacs_waste_collection_schedule">Waste Collection Schedule</a>{' '}
        (à installer depuis HACS) montre vos prochaines collectes dans Home Assistant, à partir du calendrier de votre
        secteur. Ajoutez ces lignes à votre fichier <code>configuration.yaml</code>, puis redémarrez Home Assistant.
      </p>
      {places.length > 1 && (
        <p class="field">
          <label for="home-assistant-place">Secteur</label>{' '}
          <select id="home-assistant-place" value={place.id} onChange={(e) => setPlaceId((e.target as HTMLSelectElement).value)}>
            {places.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </p>
      )}
      <fieldset>
        <legend>Capteurs</legend>
        <p class="check">
          <input id="home-assistant-one" type="radio" name="home-assistant-sensors" checked={!perBin} onChange={() => setPerBin(false)} />{' '}
          <label for="home-assistant-one">Un capteur pour toutes les collectes</label>
        </p>
        <p class="check">
          <input id="home-assistant-bins" type="radio" name="home-assistant-sensors" checked={perBin} onChange={() => setPerBin(true)} />{' '}
          <label for="home-assistant-bins">Un capteur par bac (un calendrier par bac)</label>
        </p>
      </fieldset>
      <pre class="yaml" tabIndex={0} role="region" aria-label="Configuration de Home Assistant">
        <code>{yaml}</code>
      </pre>
      <p class="actions">
        <button type="button" class="button secondary" onClick={copy}>
          Copier la configuration
        </button>
      </p>
      {said && (
        <p class="notice" role="status">
          {said}
        </p>
      )}
      <p class="muted">
        Le lien demande le calendrier sans les collectes annulées (<code>cancelled=false</code>)
        {NBSP}: l’intégration ne lit pas qu’un événement est annulé et le montrerait comme une collecte. Une collecte
        reportée y est à son nouveau jour.
      </p>
    </section>
  );
}
