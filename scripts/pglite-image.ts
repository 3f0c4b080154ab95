/**
 * Remakes src/db/pglite-initdb.tar.gz, the data directory a new embedded database starts from (see
 * src/db/pglite-image.ts). Run it after upgrading @electric-sql/pglite: `npm run pglite:image`.
 */
import fs from 'node:fs';
import { INITDB_IMAGE, makeInitdbImage } from '../src/db/pglite-image.ts';

const bytes = await makeInitdbImage();
fs.writeFileSync(INITDB_IMAGE, bytes);
console.log(`${INITDB_IMAGE.pathname}: ${bytes.length} bytes`);
