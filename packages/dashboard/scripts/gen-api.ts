// `npm run gen:api -w @punctual/dashboard`: writes src/api-schema.ts from the service's /openapi.json.
import { writeFileSync } from 'node:fs';
import { generateApiSchema, SCHEMA_FILE } from './api-schema.ts';

writeFileSync(SCHEMA_FILE, await generateApiSchema());
console.log(`wrote ${SCHEMA_FILE}`);
