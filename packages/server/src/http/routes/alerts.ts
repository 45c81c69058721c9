// /v1/alerts: the authenticated tenant's open and recent alerts (filters: state, schedule), and one alert with
// its deliveries to the channels (attempts, state, last error). Read only: alerts open and resolve by
// themselves (docs/alerts.md). Another tenant's alert is exactly as missing as one that never existed.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PunctualError, type AlertStore } from 'punctual';
import { alertDeliveryView, alertView } from '../alert-views.js';
import * as s from '../schemas.js';

export interface AlertRouteDeps {
  store: AlertStore;
}

export const alertRoutes: FastifyPluginAsyncZod<AlertRouteDeps> = async (app, deps) => {
  const tags = ['alerts'];

  app.get(
    '/alerts',
    {
      schema: {
        tags,
        summary: 'List open and recent alerts',
        description: 'Newest first. `state=open` for the open ones; `schedule` for those about one schedule.',
        querystring: s.listAlertsQuery,
        response: { 200: s.alertList, ...s.errors() },
      },
    },
    async (request) => {
      const q = request.query;
      const alerts = await deps.store.listAlerts({
        tenantId: request.tenant.id,
        state: q.state,
        scheduleKey: q.schedule,
        limit: q.limit ?? 100,
      });
      return { items: alerts.map(alertView) };
    },
  );

  app.get(
    '/alerts/:id',
    {
      schema: {
        tags,
        summary: 'One alert and its deliveries',
        params: s.alertIdParams,
        response: { 200: s.alertDetail, ...s.errors(404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const found = await deps.store.getAlert(request.tenant.id, id);
      if (!found) throw new PunctualError('ALERT_NOT_FOUND', `no alert "${id}"`, { id });
      return { alert: alertView(found.alert), deliveries: found.deliveries.map(alertDeliveryView) };
    },
  );
};
