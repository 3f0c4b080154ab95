import { Type, type Static } from 'typebox';
import { FRENCH_WEEKDAYS } from '../kernel/dates.ts';
import { Nullable, Uuid } from '../kernel/schemas.ts';
import { Day } from './schemas.ts';

/** Bulky-waste pickups (docs/api.md, bulky-waste pickups): a city's pickup days, as residents and as staff see them. */

export const CityParams = Type.Object({ cityId: Uuid('City id') });
export const CityDayParams = Type.Object({ cityId: Uuid('City id'), date: Day('The pickup day') });

export const OpenDaysQuery = Type.Object({
  from: Type.Optional(Day('First day listed (never before the first day still open: tomorrow until noon)')),
  to: Type.Optional(Day('Last day listed (by default 90 days after `from`; at most 366 days of range)')),
});

export const StaffDaysQuery = Type.Object({
  from: Day('First day listed'),
  to: Day('Last day listed (at most 366 days of range)'),
});

export const OpenPickupDaySchema = Type.Object(
  {
    date: Day('The pickup day'),
    capacity: Type.Integer({ minimum: 1, description: 'Bookings the day takes' }),
    remaining: Type.Integer({ minimum: 0, description: 'Places left (0: full)' }),
  },
  { title: 'BulkyPickupDay', description: 'A day residents may book a bulky-waste pickup for' },
);

export const AdminPickupDaySchema = Type.Object(
  {
    date: Day('The pickup day'),
    capacity: Type.Integer({ minimum: 0, description: '0: closed' }),
    booked: Type.Integer({ minimum: 0 }),
    remaining: Type.Integer({ minimum: 0 }),
    bookings: Type.Array(
      Type.Object({
        id: Uuid('The request'),
        reference: Type.String(),
        address: Nullable(Type.String()),
        items: Nullable(Type.String({ description: 'What is put out (`attributes.items`)' })),
        placeName: Nullable(Type.String()),
      }),
      { description: 'The standing bookings (`PLANIFIEE`), sorted by address: the crew’s list' },
    ),
  },
  { title: 'AdminBulkyPickupDay', description: 'A city’s pickup day with its bookings' },
);

const Capacity = Type.Integer({ minimum: 0, maximum: 10000, description: 'Bookings the day takes; 0 closes it (never below what is booked: 409)' });

export const CapacityBody = Type.Object({ capacity: Capacity });
export type CapacityInput = Static<typeof CapacityBody>;

export const CapacitiesBody = Type.Object(
  {
    from: Day('First day'),
    to: Day('Last day (at most 366 days after `from`)'),
    weekdays: Type.Array(Type.Union(FRENCH_WEEKDAYS.map((d) => Type.Literal(d))), {
      minItems: 1,
      maxItems: 7,
      uniqueItems: true,
      description: 'The days of the week set, by their French names (`mardi`)',
    }),
    capacity: Capacity,
  },
);
export type CapacitiesInput = Static<typeof CapacitiesBody>;
