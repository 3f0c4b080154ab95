// Child processes for loadDemoDataInChildProcessIfEmpty's tests (test/demo/load-in-child-process.test.ts), chosen by
// DEMO_IMPORT_CHILD: `dies` opens the database it is sent, as the import does, and is killed holding it; `recorded`
// writes its pid to DEMO_IMPORT_PID_FILE and runs the real import.
import fs from 'node:fs';
import { openDatabase } from '../../src/db/database.ts';
import type { DemoImportJob } from '../../src/demo/load.ts';

if (process.env.DEMO_IMPORT_CHILD === 'dies') {
  process.once('message', (job) => {
    void openDatabase((job as DemoImportJob).database).then(() => process.kill(process.pid, 'SIGKILL'));
  });
  process.send!({ ready: true });
} else {
  fs.writeFileSync(process.env.DEMO_IMPORT_PID_FILE!, String(process.pid));
  await import('../../src/demo/import-process.ts');
}
