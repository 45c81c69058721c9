// The contract check of the HTTP tests: every response an app built by `testApp` produces is recorded (an
// onSend hook), and when the app closes each one is checked against the document that app serves at
// /openapi.json (never a copy): its status must be listed for the operation, and a body must be JSON that
// matches that status's schema. So a route cannot drift from what it publishes. Routes the document hides
// (/openapi.json, /docs, the dashboard's files) and answers of no route (404) are not operations and are
// not checked.

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { App } from '../../src/http/app.js';

interface Recorded {
  method: string;
  route: string;
  status: number;
  contentType: string;
  body: string | null;
}

interface Response {
  content?: Record<string, { schema?: Record<string, unknown> }>;
}
interface Doc {
  paths: Record<string, Record<string, { responses?: Record<string, Response> }>>;
  components?: Record<string, unknown>;
}

export class ContractRecorder {
  readonly #records: Recorded[] = [];

  /** Records every response of `app` (call before the app is ready). */
  install(app: App): void {
    app.addHook('onSend', async (request, reply, payload) => {
      const route = request.routeOptions.url;
      if (route !== undefined) {
        this.#records.push({
          method: request.method.toLowerCase(),
          route: route.replace(/:(\w+)/g, '{$1}'),
          status: reply.statusCode,
          contentType: String(reply.getHeader('content-type') ?? ''),
          body: typeof payload === 'string' ? payload : null,
        });
      }
      return payload;
    });
  }

  get count(): number {
    return this.#records.length;
  }

  /** Every recorded response that breaks the served document, one line each (empty: none). */
  violations(doc: Doc): string[] {
    // The document is OpenAPI 3.1: its schemas are JSON Schema 2020-12. Formats are the service's to
    // check; the shapes and enumerations are what clients rely on.
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
    const compiled = new Map<Record<string, unknown>, ValidateFunction>();
    const out = new Set<string>();
    for (const r of this.#records) {
      const op = doc.paths[r.route]?.[r.method];
      if (!op) continue; // not an operation of the document (hidden, or the 404 of no route)
      const where = `${r.method.toUpperCase()} ${r.route} ${r.status}`;
      const response = op.responses?.[String(r.status)];
      if (!response) {
        out.add(`${where}: status not listed (listed: ${Object.keys(op.responses ?? {}).join(', ')})`);
        continue;
      }
      const schema = response.content?.['application/json']?.schema;
      if (!schema || r.body === null || r.body === '') continue;
      if (!r.contentType.startsWith('application/json')) {
        out.add(
          `${where}: content type ${JSON.stringify(r.contentType)} where application/json is published`,
        );
        continue;
      }
      let validate = compiled.get(schema);
      if (!validate) {
        validate = ajv.compile({ ...schema, components: doc.components });
        compiled.set(schema, validate);
      }
      if (!validate(JSON.parse(r.body))) {
        out.add(`${where}: body does not match its schema: ${ajv.errorsText(validate.errors)}`);
      }
    }
    return [...out];
  }
}
