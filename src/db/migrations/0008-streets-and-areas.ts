import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * Which addresses a collection place serves (docs/api.md, from an address to a collection place): street rules (a street as written, a number range
 * with open ends as null, a side) and an optional area (a GeoJSON Polygon or MultiPolygon in WGS 84). The rules'
 * table is `place_street`, a place's street, as the admin API names the resource (`/admin/streets/:id`).
 *
 * `street_key` is the street as streetKey of src/kernel/address.ts normalises it (abbreviations expanded), computed in code and stored, so that rules
 * are compared (two places of a city may not claim the same numbers of a street) and looked up by one spelling.
 * The area's bounding box is stored beside it, null with no area, under a GiST index of PostgreSQL's built-in `box`
 * type that the position lookup filters on before testing the polygon itself in code (src/kernel/geo.ts); attached
 * locations get a GiST index of their `point` for "within 300 m". Built-in types, no PostGIS: the same on PGlite.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE TABLE place_street (
      id uuid PRIMARY KEY,
      place_id uuid NOT NULL REFERENCES collection_place(id) ON DELETE CASCADE,
      street text NOT NULL,
      street_key text NOT NULL,
      from_number integer CHECK (from_number >= 1),
      to_number integer CHECK (to_number >= 1),
      side text NOT NULL CHECK (side IN ('ALL', 'ODD', 'EVEN')),
      CHECK (from_number IS NULL OR to_number IS NULL OR from_number <= to_number)
    );
    CREATE INDEX place_street_place_idx ON place_street (place_id);
    CREATE INDEX place_street_key_idx ON place_street (street_key);

    ALTER TABLE collection_place ADD COLUMN area jsonb;
    ALTER TABLE collection_place ADD COLUMN area_min_lon double precision;
    ALTER TABLE collection_place ADD COLUMN area_min_lat double precision;
    ALTER TABLE collection_place ADD COLUMN area_max_lon double precision;
    ALTER TABLE collection_place ADD COLUMN area_max_lat double precision;
    ALTER TABLE collection_place ADD CONSTRAINT collection_place_area_box_check CHECK (
      (area IS NULL AND area_min_lon IS NULL AND area_min_lat IS NULL AND area_max_lon IS NULL AND area_max_lat IS NULL)
      OR (area IS NOT NULL AND area_min_lon IS NOT NULL AND area_min_lat IS NOT NULL AND area_max_lon IS NOT NULL AND area_max_lat IS NOT NULL)
    );
    CREATE INDEX collection_place_area_box_idx ON collection_place
      USING gist (box(point(area_min_lon, area_min_lat), point(area_max_lon, area_max_lat))) WHERE area IS NOT NULL;
    CREATE INDEX attached_location_position_idx ON attached_location USING gist (point(longitude, latitude))
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    DROP INDEX IF EXISTS attached_location_position_idx;
    DROP INDEX IF EXISTS collection_place_area_box_idx;
    ALTER TABLE collection_place DROP CONSTRAINT IF EXISTS collection_place_area_box_check;
    ALTER TABLE collection_place DROP COLUMN IF EXISTS area_max_lat;
    ALTER TABLE collection_place DROP COLUMN IF EXISTS area_max_lon;
    ALTER TABLE collection_place DROP COLUMN IF EXISTS area_min_lat;
    ALTER TABLE collection_place DROP COLUMN IF EXISTS area_min_lon;
    ALTER TABLE collection_place DROP COLUMN IF EXISTS area;
    DROP TABLE IF EXISTS place_street
  `);
}
