import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * Recycling points, part two (docs/api.md, recycling points and open data): an OpenStreetMap `opening_hours` spec beside the seed's free
 * text, a kind, and the city's waste types each point takes; and a city group's optional SIRET for the SCDL export.
 *
 * `kind` stays null on the rows that exist: null means "not said", and the open-data exports leave the tags it
 * drives out rather than guess. Materials are a join table whose foreign keys carry the city, so that a point can
 * only take a waste type of its own city, whatever writes the row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    ALTER TABLE city_group ADD COLUMN siret text CHECK (siret ~ '^[0-9]{14}$');

    ALTER TABLE recycling_point ADD COLUMN opening_hours_spec text;
    ALTER TABLE recycling_point ADD COLUMN kind text CHECK (kind IN ('CENTRE', 'CONTAINER', 'SHOP'));
    ALTER TABLE recycling_point ADD CONSTRAINT recycling_point_city_id_id_key UNIQUE (city_id, id);

    CREATE TABLE recycling_point_material (
      recycling_point_id uuid NOT NULL,
      waste_type_id uuid NOT NULL,
      city_id uuid NOT NULL,
      PRIMARY KEY (recycling_point_id, waste_type_id),
      FOREIGN KEY (city_id, recycling_point_id) REFERENCES recycling_point (city_id, id) ON DELETE CASCADE,
      FOREIGN KEY (city_id, waste_type_id) REFERENCES waste_type (city_id, id) ON DELETE CASCADE
    );
    CREATE INDEX recycling_point_material_waste_type_idx ON recycling_point_material (waste_type_id);
    CREATE INDEX recycling_point_material_city_idx ON recycling_point_material (city_id)
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    DROP TABLE IF EXISTS recycling_point_material;
    ALTER TABLE recycling_point DROP CONSTRAINT IF EXISTS recycling_point_city_id_id_key;
    ALTER TABLE recycling_point DROP COLUMN IF EXISTS kind;
    ALTER TABLE recycling_point DROP COLUMN IF EXISTS opening_hours_spec;
    ALTER TABLE city_group DROP COLUMN IF EXISTS siret
  `);
}
