// GET /v1/metrics: the few service metrics the dashboard's Health page charts, as JSON, for any tenant's API
// key. Built from prom-client's getMetricsAsJSON(), restricted to DASHBOARD_METRICS and with the `tenant` label
// summed away, so it never names another tenant. It must not grow into a second /metrics: it carries only what
// the dashboard needs.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Metrics } from '../../metrics.js';
import * as s from '../schemas.js';

/** The metrics the dashboard's Health page reads (histograms as their _bucket and _count series). */
export const DASHBOARD_METRICS = [
  'punctual_runs_due',
  'punctual_runs_running',
  'punctual_oldest_due_run_age_seconds',
  'punctual_runs_finished_total',
  'punctual_run_lateness_seconds',
  'punctual_delivery_duration_seconds',
  'punctual_leases_reclaimed_total',
  'punctual_schedule_not_fired_total',
  'punctual_schedules',
] as const;

/** Labels that would reveal other tenants: their series are summed. */
const HIDDEN_LABELS = new Set(['tenant']);

const sample = z.object({
  name: z.string().meta({ description: 'series name; histograms give name_bucket, name_sum, name_count' }),
  labels: z.record(z.string(), z.string()),
  value: z.number(),
});

export const metricsSnapshot = z
  .object({
    at: z.iso.datetime().meta({ description: 'when the values were read' }),
    samples: z.array(sample),
  })
  .meta({ id: 'MetricsSnapshot' });

type Sample = z.infer<typeof sample>;

/** prom-client's JSON to samples: only the named metrics, hidden labels summed away, `le` as text. */
export function dashboardSamples(
  metrics: Awaited<ReturnType<Metrics['json']>>,
  names: readonly string[] = DASHBOARD_METRICS,
): Sample[] {
  const wanted = new Set(names);
  const byKey = new Map<string, Sample>();
  for (const metric of metrics) {
    if (!wanted.has(metric.name)) continue;
    for (const v of metric.values) {
      const labels: Record<string, string> = {};
      for (const [k, raw] of Object.entries(v.labels)) {
        if (HIDDEN_LABELS.has(k) || raw === undefined) continue;
        labels[k] = raw === Infinity ? '+Inf' : String(raw);
      }
      const name = (v as { metricName?: string }).metricName ?? metric.name;
      const key = `${name}\u0000${JSON.stringify(Object.entries(labels).sort())}`;
      const prev = byKey.get(key);
      if (prev) prev.value += v.value;
      else byKey.set(key, { name, labels, value: v.value });
    }
  }
  return [...byKey.values()];
}

export const metricsJsonRoutes: FastifyPluginAsyncZod<{ metrics: Metrics; now: () => number }> = async (
  app,
  deps,
) => {
  app.get(
    '/metrics',
    {
      schema: {
        // Its derived id would repeat GET /metrics' (the version prefix is left out of ids).
        operationId: 'getMetricsJson',
        tags: ['operations'],
        summary: "The service's health metrics the dashboard charts, as JSON",
        description:
          'Run queue, lateness, delivery outcomes, reclaimed leases and not-fired occurrences of the whole ' +
          'service (all tenants summed; no tenant is named). The Prometheus text is at /metrics.',
        response: { 200: metricsSnapshot, ...s.errors() },
      },
    },
    async () => {
      const at = new Date(deps.now()).toISOString();
      return { at, samples: dashboardSamples(await deps.metrics.json()) };
    },
  );
};
