import { streetKey } from '../kernel/address.ts';
import { DEFAULT_PASSING_SCORE } from '../domain/challenges.ts';
import { areaColumns } from '../cities/place-rules.ts';
import type { BundleCity } from './schema.ts';
import { datedRow, orNull as n, type BundleRows, type Row } from './tables.ts';

/** The rows of a city and of everything it holds, one explicit mapping per table (see rows.ts). */
export function addCityRows(rows: BundleRows, city: BundleCity, now: string): void {
  rows.city.push(
    datedRow(
      {
        id: city.id,
        name: city.name,
        country: city.country,
        population: n(city.population),
        status: city.status,
        time_zone: city.timeZone ?? 'Europe/Paris',
        holiday_calendar: city.holidayCalendar ?? 'FR',
        out_of_the_bins: n(city.outOfTheBins),
        presentation_of_bins: n(city.presentationOfBins),
        return_of_bins: n(city.returnOfBins),
        respect_of_calendar: n(city.respectOfCalendar),
        holidays: n(city.holidays),
        city_group_id: n(city.cityGroupId),
      },
      city,
      now,
    ),
  );
  for (const w of city.wasteTypes ?? []) {
    rows.waste_type.push({
      id: w.id,
      city_id: city.id,
      name: w.name,
      description: n(w.description),
      instructions: n(w.instructions),
      color: n(w.color),
      color_light: n(w.colorLight),
      icon: n(w.icon),
      image_url: n(w.imageUrl),
    });
    for (const d of w.details ?? []) {
      rows.waste_type_detail.push({
        id: d.id,
        waste_type_id: w.id,
        material: d.material,
        description: n(d.description),
        instructions: n(d.instructions),
        image_url: n(d.imageUrl),
      });
    }
  }
  for (const place of city.wasteCollectionPlaces ?? []) {
    rows.collection_place.push({ id: place.id, city_id: city.id, name: place.name, ...areaColumns(place.area) });
    for (const s of place.streets ?? []) {
      rows.place_street.push({
        id: s.id,
        place_id: place.id,
        street: s.street,
        street_key: streetKey(s.street),
        from_number: n(s.fromNumber),
        to_number: n(s.toNumber),
        side: s.side,
      });
    }
    for (const day of place.collectionDays ?? []) {
      rows.collection_day.push({
        id: day.id,
        place_id: place.id,
        name: day.name,
        waste_type_id: day.wasteTypeId,
        description: n(day.description),
        biweekly: n(day.biweekly),
        start_date: n(day.startDate),
      });
    }
    for (const e of place.exceptions ?? []) {
      rows.collection_exception.push({
        id: e.id,
        place_id: place.id,
        date_from: e.dateFrom,
        date_to: n(e.dateTo),
        waste_type_id: e.wasteTypeId,
        name: n(e.name),
        description: n(e.description),
        kind: e.kind ?? 'CANCEL',
        moved_to: n(e.movedTo),
      });
    }
    for (const l of place.attachedLocations ?? []) {
      rows.attached_location.push({
        id: l.id,
        place_id: place.id,
        name: l.name,
        reference: l.reference,
        latitude: l.latitude,
        longitude: l.longitude,
      });
    }
  }
  for (const p of city.recyclingPoints ?? []) {
    rows.recycling_point.push({
      id: p.id,
      city_id: city.id,
      name: p.name,
      address: n(p.address),
      latitude: n(p.latitude),
      longitude: n(p.longitude),
      opening_hours: n(p.openingHours),
      opening_hours_spec: n(p.openingHoursSpec),
      kind: n(p.kind),
    });
    for (const wasteTypeId of p.materials ?? []) {
      rows.recycling_point_material.push({ recycling_point_id: p.id, waste_type_id: wasteTypeId, city_id: city.id });
    }
  }
  for (const q of city.quizQuestions ?? []) {
    rows.quiz_question.push({
      id: q.id,
      city_id: city.id,
      material: q.material,
      question: q.question,
      correct_waste_type_id: q.correctWasteTypeId,
      order: q.order ?? 0,
    });
  }
  for (const c of city.challenges ?? []) {
    rows.challenge.push({
      id: c.id,
      city_id: city.id,
      name: c.name,
      description: n(c.description),
      enabled: c.enabled ?? true,
      start_date: n(c.startDate),
      end_date: n(c.endDate),
      order: c.order ?? 0,
      required_challenge_id: n(c.requiredChallengeId),
      passing_score: c.passingScore ?? DEFAULT_PASSING_SCORE,
    });
    if (c.badge) {
      rows.badge.push({
        id: c.badge.id,
        challenge_id: c.id,
        name: c.badge.name,
        description: n(c.badge.description),
        icon: n(c.badge.icon),
        image_url: n(c.badge.imageUrl),
      });
    }
    for (const s of c.series ?? []) {
      rows.serie.push({ id: s.id, challenge_id: c.id, name: s.name, description: n(s.description), order: s.order ?? 0 });
      for (const qid of s.quizQuestionIds ?? []) rows.serie_question.push({ serie_id: s.id, quiz_question_id: qid });
    }
  }
}

/**
 * Sorts challenges so that a challenge goes in no earlier than the one it requires: requirements point backwards
 * (validation ruled out cycles).
 */
export function sortByRequirement(challenges: Row<'challenge'>[]): void {
  const requiredOf = new Map(challenges.map((c) => [c.id, c.required_challenge_id ?? null]));
  const depths = new Map<string, number>();
  const depth = (id: string): number => {
    const known = depths.get(id);
    if (known !== undefined) return known;
    const required = requiredOf.get(id);
    const d = required != null && requiredOf.has(required) ? depth(required) + 1 : 0;
    depths.set(id, d);
    return d;
  };
  challenges.sort((a, b) => depth(a.id) - depth(b.id));
}
