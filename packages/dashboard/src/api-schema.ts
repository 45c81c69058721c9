// GENERATED from the service's /openapi.json by packages/dashboard/scripts/gen-api.ts; do not edit.
// Regenerate with `npm run gen:api -w @punctual/dashboard`; a test fails when this file drifts.

export interface paths {
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The process is up */
    get: operations['getHealthz'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Ready for traffic: scheduler started (migrations current) and database reachable */
    get: operations['getReadyz'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Prometheus metrics
     * @description Open unless PUNCTUAL_METRICS_TOKEN is set; then `Authorization: Bearer <token>` is required and per-tenant series are shown. Open, they are summed over tenants.
     */
    get: operations['getMetrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules/{key}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a schedule */
    get: operations['getSchedulesByKey'];
    /**
     * Create or update the schedule with this key
     * @description Upsert by key: 201 when created, 200 when updated (or unchanged); droppedOverrides lists the overrides of occurrences the change removed. With If-Match, a stale version answers 409 VERSION_CONFLICT. Creating counts against the maxSchedules quota. With ?dryRun=true nothing is written: 200 with what the put would do (DryRun), or the error the put would answer.
     */
    put: operations['putSchedulesByKey'];
    post?: never;
    /**
     * Delete a schedule
     * @description Its pending runs are cancelled; its run history is kept (GET /v1/runs?scheduleKey=).
     */
    delete: operations['deleteSchedulesByKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List schedules
     * @description Filter by state, target kind and key prefix; pages by cursor, ordered by key.
     */
    get: operations['getSchedules'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules/{key}/pause': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Pause a schedule
     * @description Occurrences while paused are recorded as skipped. cancelPending also cancels runs already scheduled. With until, it resumes by itself then (400 PAUSE_UNTIL_INVALID when not in the future).
     */
    post: operations['postSchedulesByKeyPause'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules/{key}/resume': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Resume a paused schedule from now on */
    post: operations['postSchedulesByKeyResume'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules/{key}/trigger': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Run the schedule now
     * @description Creates one manual run due now; `payload` replaces the schedule's payload for it. Counts against the maxRunsPerMinute quota.
     */
    post: operations['postSchedulesByKeyTrigger'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules/{key}/backfill': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create runs for past occurrences in [from, to)
     * @description One run per occurrence of the spec in the range that has none yet; `to` may not be in the future; at most the schedule's maxCatchup runs. Counts against the maxRunsPerMinute quota.
     */
    post: operations['postSchedulesByKeyBackfill'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules/{key}/rerun': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Run again the final runs of a range
     * @description The runs of the schedule whose scheduledFor is in [from, to) and whose state is one of `states` (default dead) are scheduled again, due now, as new attempts of the same occurrence (same run id, scheduledFor and occurrence id); at most the schedule's maxCatchup runs. Runs that cannot run again are listed in `refused`. Counts against the maxRunsPerMinute quota.
     */
    post: operations['postSchedulesByKeyRerun'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules/{key}/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a schedule's runs
     * @description Newest first; 404 when the schedule does not exist (use GET /v1/runs?scheduleKey= for deleted ones).
     */
    get: operations['getSchedulesByKeyRuns'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules/bulk': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create or update many schedules
     * @description Up to 5000 items (a JSON array, or application/x-ndjson with one item per line; at most 16 MiB), each the body of PUT /v1/schedules/{key} plus its key. Each item is validated on its own: an invalid one (or a key given twice) is refused with its index, line, code and message, and the others are written in one transaction, with the rules of a single put (unchanged items write nothing). 200 with an outcome per item (created, updated, unchanged, refused) and totals. Creating counts against the maxSchedules quota for the whole request (429, nothing written). With ?dryRun=true nothing is written.
     */
    post: operations['postSchedulesBulk'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules/{key}/revisions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a schedule's revisions
     * @description Newest first: each change (created, updated, paused, resumed, deleted, rolledBack) with its version, instant, actor and field diff. Kept after a delete; at most the newest 100 per key. 404 when the key has no schedule and no revision.
     */
    get: operations['getSchedulesByKeyRevisions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules/{key}/revisions/{version}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get one version of a schedule, with its full content
     * @description The newest revision of that version; 404 REVISION_UNKNOWN when none is kept.
     */
    get: operations['getSchedulesByKeyRevisionsByVersion'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules/{key}/rollback': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Restore the exact content of an earlier version as a new version
     * @description The content of `version` (spec, tz, target, payload, policies, bounds, labels, summary...) is put again as version current + 1 (revision rolledBack); the pending runs of the current version are cancelled (reason updated) and the restored spec materialises, as for any update. When that content is the current one nothing is written (changed: false). 404 REVISION_UNKNOWN when the version is not kept, with nothing changed.
     */
    post: operations['postSchedulesByKeyRollback'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules/{key}/occurrences': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a schedule's upcoming occurrences with their overrides
     * @description The next occurrences of the spec from now (count, default 10), each with when it runs and its override (skipped ones have at: null; moved ones are listed at their nominal instant).
     */
    get: operations['getSchedulesByKeyOccurrences'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules/{key}/occurrences/{instant}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Override one occurrence: skip it, move it, or give it another payload
     * @description The instant must be an occurrence of the schedule (400 OCCURRENCE_UNKNOWN). A pending run of it follows at once; when its run already started 409 OCCURRENCE_STARTED and nothing is written. Replaces an earlier override of the same occurrence.
     */
    put: operations['putSchedulesByKeyOccurrencesByInstant'];
    post?: never;
    /**
     * Remove an occurrence's override
     * @description Its pending run goes back to the plain occurrence (a skipped one is written again). 404 OVERRIDE_NOT_FOUND when it has none.
     */
    delete: operations['deleteSchedulesByKeyOccurrencesByInstant'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List runs
     * @description Filter by state, schedule key and scheduledFor range [from, to); pages by cursor.
     */
    get: operations['getRuns'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/runs/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a run with its attempts */
    get: operations['getRunsById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/runs/{id}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a run that has not finished
     * @description A running run loses its lease (its delivery is aborted). A finished run answers 409.
     */
    post: operations['postRunsByIdCancel'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/runs/{id}/rerun': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Run a finished run again
     * @description The run is scheduled again, due now, as new attempts of the same occurrence: the same run id, scheduledFor and occurrence id, the schedule's current version and retry budget, no deadline. A run not final yet, or whose occurrence another run holds, answers 409 RUN_NOT_RERUNNABLE; a run whose schedule was deleted, 404 SCHEDULE_NOT_FOUND. Counts against the maxRunsPerMinute quota.
     */
    post: operations['postRunsByIdRerun'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Describe a spec and list its next occurrences (nothing is saved) */
    post: operations['postPreview'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/schedules/{key}/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A saved schedule's next occurrences as they will really run
     * @description From now: its calendars applied (excluded dates dropped, non-working days rolled) and its per-occurrence overrides (a skipped occurrence dropped with reason override, a moved one listed at its new instant with a moved note, another payload noted with payloadOverridden). count default 10; explain=true lists the dropped candidates. A completed schedule has none.
     */
    get: operations['getSchedulesByKeyPreview'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/tenant': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This tenant's name, quotas and webhook signing secret */
    get: operations['getTenant'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/tenant/webhook-secret/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replace the webhook signing secret
     * @description Webhook requests carry signatures with both the new and the previous secret until previousSecretExpiresAt (PUNCTUAL_WEBHOOK_SECRET_GRACE after the rotation).
     */
    post: operations['postTenantWebhookSecretRotate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/kv': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List keys and values
     * @description In key order (UTF-8 byte order), optionally only the keys starting with `prefix`; pages by cursor.
     */
    get: operations['getKv'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/kv/{key}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read one key */
    get: operations['getKvByKey'];
    /**
     * Write one key
     * @description The body is the value: any JSON. 201 when the key is new, 200 when it replaced a value. A new key beyond the key quota answers 429 KV_QUOTA_EXCEEDED, a value over the size limit 413 KV_QUOTA_EXCEEDED, a bad key or value 400 KV_INVALID.
     */
    put: operations['putKvByKey'];
    post?: never;
    /** Delete one key */
    delete: operations['deleteKvByKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/calendars': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List calendars */
    get: operations['getCalendars'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/calendars/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a calendar: its dates with their labels and its working days
     * @description `usedBy` names up to 10 schedules using it (a delete is refused with CALENDAR_IN_USE while any does).
     */
    get: operations['getCalendarsByName'];
    /**
     * Create or replace a calendar
     * @description A change bumps the version and re-plans the pending runs of every schedule using the calendar. If-Match: the version expected.
     */
    put: operations['putCalendarsByName'];
    post?: never;
    /**
     * Delete a calendar (refused with CALENDAR_IN_USE while a schedule names it)
     * @description Its revisions are kept (a `deleted` one is added): GET /v1/calendars/{name}/revisions still lists them and a rollback brings the calendar back; one created again continues the version numbers.
     */
    delete: operations['deleteCalendarsByName'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/calendars/{name}/import': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create or replace a calendar from the all-day events of an .ics text
     * @description DTSTART;VALUE=DATE events (DTEND exclusive), multi-day ranges and yearly RRULEs (expanded over horizonYears) become dates labelled with their SUMMARY; events on the same days are merged. Other events are listed in `skipped`.
     */
    post: operations['postCalendarsByNameImport'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/calendars/{name}/revisions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a calendar's revisions
     * @description Newest first: each change (created, updated, rolledBack, deleted) with its version, instant, actor and diff (dates added and removed with their labels, working days, zone, description). Kept after a delete; at most the newest 100 per name. 404 CALENDAR_NOT_FOUND when the name has no calendar and no revision.
     */
    get: operations['getCalendarsByNameRevisions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/calendars/{name}/revisions/{version}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get one version of a calendar, with its full content
     * @description The newest revision of that version; 404 REVISION_UNKNOWN when none is kept.
     */
    get: operations['getCalendarsByNameRevisionsByVersion'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/calendars/{name}/rollback': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Restore the exact content of an earlier version of a calendar as a new version
     * @description The dates, labels, working days, zone and description of `version` are put again as a new version (revision rolledBack) and the pending runs of every schedule using the calendar are planned again, as for any change; a deleted calendar comes back. When that content is the current one nothing is written (changed: false). 404 REVISION_UNKNOWN when the version is not kept, with nothing changed. If-Match: the current version expected (409 VERSION_CONFLICT).
     */
    post: operations['postCalendarsByNameRollback'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/alerts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List open and recent alerts
     * @description Newest first. `state=open` for the open ones; `schedule` for those about one schedule.
     */
    get: operations['getAlerts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/alerts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One alert and its deliveries */
    get: operations['getAlertsById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/alert-channels': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List alert channels */
    get: operations['getAlertChannels'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/alert-channels/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One alert channel */
    get: operations['getAlertChannelsByName'];
    /**
     * Create or replace an alert channel
     * @description Every alert transition (opened, resolved) from now on is delivered to it. 201 when new, 200 when replaced. Bodies per kind: docs/alerts.md.
     */
    put: operations['putAlertChannelsByName'];
    post?: never;
    /**
     * Delete an alert channel
     * @description Its deliveries not yet made are given up.
     */
    delete: operations['deleteAlertChannelsByName'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/checks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List checks */
    get: operations['getChecks'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/checks/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One check */
    get: operations['getChecksByName'];
    /**
     * Create or replace a check
     * @description A heartbeat check expects its first heartbeat within `every` of its creation; a replaced one is re-armed from its last heartbeat. 201 when new, 200 when replaced.
     */
    put: operations['putChecksByName'];
    post?: never;
    /**
     * Delete a check
     * @description Its open alert is resolved.
     */
    delete: operations['deleteChecksByName'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/heartbeats/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Record a heartbeat
     * @description Re-arms the check for `every` from now and resolves its open heartbeat_missed alert. No body.
     */
    post: operations['postHeartbeatsByName'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The service's health metrics the dashboard charts, as JSON
     * @description Run queue, lateness, delivery outcomes, reclaimed leases and not-fired occurrences of the whole service (all tenants summed; no tenant is named). The Prometheus text is at /metrics.
     */
    get: operations['getMetricsJson'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** @description exactly one of the target kinds, as { "<kind>": ... }: handler, webhook, redis, nats, amqp, script, command */
    TargetInput:
      | {
          handler: string;
        }
      | {
          webhook: {
            url: string;
            /** @enum {string} */
            method?: 'POST' | 'PUT' | 'PATCH';
            headers?: {
              [key: string]: string;
            };
            timeoutMs?: number;
            /**
             * @description the message id as a template (default: the occurrence id); placeholders: {key}, {scheduleId}, {scheduledFor}, {scheduledForSeconds}, {scheduledForIso}, {occurrenceId}, {runId}, {tenant}
             * @example {key}-{scheduledForSeconds}
             */
            idTemplate?: string;
          };
        }
      | {
          redis: {
            /** @description the operator's redis connection */
            connection: string;
            stream: string;
            /** @description trim with MAXLEN ~ n (1 to 1e9) */
            maxLen?: number;
            /**
             * @description the message id as a template (default: the occurrence id); placeholders: {key}, {scheduleId}, {scheduledFor}, {scheduledForSeconds}, {scheduledForIso}, {occurrenceId}, {runId}, {tenant}
             * @example {key}-{scheduledForSeconds}
             */
            idTemplate?: string;
          };
        }
      | {
          nats: {
            /** @description the operator's nats connection */
            connection: string;
            subject: string;
            /**
             * @description the message id as a template (default: the occurrence id); placeholders: {key}, {scheduleId}, {scheduledFor}, {scheduledForSeconds}, {scheduledForIso}, {occurrenceId}, {runId}, {tenant}
             * @example {key}-{scheduledForSeconds}
             */
            idTemplate?: string;
          };
        }
      | {
          amqp: {
            /** @description the operator's amqp connection */
            connection: string;
            /** @description default: the default exchange */
            exchange?: string;
            routingKey: string;
            /**
             * @description the message id as a template (default: the occurrence id); placeholders: {key}, {scheduleId}, {scheduledFor}, {scheduledForSeconds}, {scheduledForIso}, {occurrenceId}, {runId}, {tenant}
             * @example {key}-{scheduledForSeconds}
             */
            idTemplate?: string;
          };
        }
      | {
          script: {
            /**
             * @description an ES module whose default export is called with ctx; compiled when saved
             * @example export default (ctx) => ctx.payload
             */
            source: string;
            /** @description wall time of a run (up to the operator's maximum) */
            timeoutMs?: number;
            /** @description memory of a run (up to the operator's maximum) */
            memoryMb?: number;
          };
        }
      | {
          /** @description a program run on the service's machine, as the service's user; only when the operator enabled commands for the tenant (docs/commands.md) */
          command: {
            /**
             * @description the program (an absolute path) and its arguments; with shell: true, exactly one string: the command line for /bin/sh -c
             * @example [
             *       "/usr/bin/env",
             *       "date"
             *     ]
             */
            argv: string[];
            /** @description run argv[0] as a command line with /bin/sh -c (default false) */
            shell?: boolean;
            /** @description absolute working directory (default: the service's) */
            cwd?: string;
            /** @description extra environment variables, over a minimal environment (PATH, HOME, LANG...) */
            env?: {
              [key: string]: string;
            };
            /** @description text written to the command's standard input */
            stdin?: string;
            /** @description wall time before the whole process group is killed (default 60000, at most 86400000) */
            timeoutMs?: number;
          };
        };
    PutCalendarInput: {
      /**
       * @description IANA zone of the dates (default UTC)
       * @example Europe/Berlin
       */
      tz?: string;
      dates?: (
        | string
        | {
            /**
             * @description a date YYYY-MM-DD in the calendar zone
             * @example 2026-12-25
             */
            start: string;
            /**
             * @description the last day, inclusive (default: start)
             * @example 2026-12-25
             */
            end?: string;
            label?: string | null;
          }
      )[];
      /**
       * @description the working days of the week; omitted or null: every day
       * @example [
       *       "mon",
       *       "tue",
       *       "wed",
       *       "thu",
       *       "fri"
       *     ]
       */
      workingDays?: ('mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun')[] | null;
      description?: string | null;
    };
    ImportCalendarInput: {
      /** @description the text of an .ics file (at most 1 MiB); its all-day events become dates */
      ics: string;
      /** @description default: the feed's X-WR-TIMEZONE, else UTC */
      tz?: string;
      /**
       * @description the working days of the week; omitted or null: every day
       * @example [
       *       "mon",
       *       "tue",
       *       "wed",
       *       "thu",
       *       "fri"
       *     ]
       */
      workingDays?: ('mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun')[] | null;
      description?: string | null;
      /** @description yearly events are expanded this many years ahead (default 5) */
      horizonYears?: number;
    };
    PutScheduleInput: {
      /** @example 0 9 * * 1-5 */
      spec: string;
      /** @example Europe/Paris */
      tz?: string;
      target: components['schemas']['TargetInput'];
      /** @description any JSON value handed to the target */
      payload?: unknown;
      policies?: {
        retry?: {
          maxAttempts?: number;
          /** @enum {string} */
          backoff?: 'fixed' | 'exponential';
          delayMs?: number;
          maxDelayMs?: number;
          jitter?: boolean;
        };
        timeoutMs?: number;
        /** @enum {string} */
        overlap?: 'allow' | 'skip' | 'bufferOne' | 'bufferAll' | 'cancelPrevious';
        /** @enum {string} */
        misfire?: 'skip' | 'runOnce' | 'runAll';
        catchupWindowMs?: number;
        maxCatchup?: number;
        deadlineMs?: number | null;
        priority?: number;
        maxChecks?: number;
        checkHorizonMs?: number;
      };
      startAt?: string | null;
      endAt?: string | null;
      maxRuns?: number | null;
      /** @description milliseconds or a duration ("30s") */
      jitter?: number | string;
      /** @description the user's own free text (at most 2000 characters); `description` is generated from the spec */
      summary?: string | null;
      /**
       * @description key/value strings to find schedules by (at most 20; keys 1-63 letters, digits and . _ / -; values at most 200 characters)
       * @example {
       *       "jobType": "email"
       *     }
       */
      labels?: {
        [key: string]: string;
      } | null;
      /** @description what a fixed local time does at a DST change (cron and RRULE only): gap shift (run right after the gap) or skip; repeat first (first pass) or both; see docs/time.md. Default (omitted or null): cron shift/first, RRULE skip/first; refused (DST_INVALID) for @every and @at */
      dst?: {
        /** @enum {string} */
        gap?: 'shift' | 'skip';
        /** @enum {string} */
        repeat?: 'first' | 'both';
      } | null;
      /**
       * @description calendars whose dates skip an occurrence (recorded as skipped, reason calendar)
       * @example [
       *       "de-holidays"
       *     ]
       */
      exclude?: string[] | null;
      /** @description keep to the working days of a calendar: skip, or roll to the next / previous working day at the same local time */
      businessDays?: {
        calendar: string;
        /**
         * @description default skip
         * @enum {string}
         */
        roll?: 'skip' | 'next' | 'previous';
      } | null;
      expect?: {
        /**
         * @description milliseconds or a duration ("15m", "PT15M")
         * @example 15m
         */
        successWithin: number | string;
      } | null;
      /**
       * @description on create only: `paused` creates it paused; an update keeps the stored state
       * @enum {string}
       */
      state?: 'active' | 'paused';
    };
    RerunRangeInput: {
      /**
       * Format: date-time
       * @description scheduledFor at or after this instant
       * @example 2026-01-05T09:00:00Z
       */
      from: string;
      /**
       * Format: date-time
       * @description scheduledFor before this instant
       * @example 2026-01-05T09:00:00Z
       */
      to: string;
      /** @description the states of the runs to run again (final states only; default ["dead"]) */
      states?: ('succeeded' | 'dead' | 'skipped' | 'expired' | 'cancelled')[];
    };
    /** @description any JSON value, stored as it is */
    KvValueInput: unknown;
    AlertChannelBodyInput: {
      /** @enum {string} */
      kind: 'webhook' | 'slack' | 'pagerduty';
      /** @description absolute http(s) URL the transitions are POSTed to */
      url: string;
      /** @description the Events API v2 routing key (pagerduty channels only) */
      routingKey?: string | null;
    };
    /** @description a heartbeat check takes `every`; a deadline check takes `schedule`, `spec`, `tz` and `within` (CHECK_INVALID for a field of the other kind, CHECK_DEADLINE_UNMEETABLE for a deadline that can never be met) */
    CheckBodyInput: {
      /** @enum {string} */
      kind: 'heartbeat' | 'deadline';
      /**
       * @description heartbeat: a heartbeat must arrive at least this often (duration, at least 1s)
       * @example 10m
       */
      every?: string;
      /**
       * @description deadline: the key of the schedule a run of which must succeed in each window
       * @example reports.daily
       */
      schedule?: string;
      /**
       * @description deadline: a cron line or RRULE; each instant opens a window
       * @example 0 9 * * 1-5
       */
      spec?: string;
      /**
       * @description deadline: the IANA zone the spec is read in (default UTC)
       * @example Europe/Paris
       */
      tz?: string;
      /**
       * @description deadline: how long each window stays open (above zero, at most the gap between two windows)
       * @example 15m
       */
      within?: string;
    };
    Error: {
      error: {
        /** @example VALIDATION_FAILED */
        code: string;
        message: string;
        details: {
          [key: string]: unknown;
        };
      };
    };
    /** @description exactly one of the target kinds, as { "<kind>": ... }: handler, webhook, redis, nats, amqp, script, command */
    Target:
      | {
          handler: string;
        }
      | {
          webhook: {
            url: string;
            /** @enum {string} */
            method?: 'POST' | 'PUT' | 'PATCH';
            headers?: {
              [key: string]: string;
            };
            timeoutMs?: number;
            /**
             * @description the message id as a template (default: the occurrence id); placeholders: {key}, {scheduleId}, {scheduledFor}, {scheduledForSeconds}, {scheduledForIso}, {occurrenceId}, {runId}, {tenant}
             * @example {key}-{scheduledForSeconds}
             */
            idTemplate?: string;
          };
        }
      | {
          redis: {
            /** @description the operator's redis connection */
            connection: string;
            stream: string;
            /** @description trim with MAXLEN ~ n (1 to 1e9) */
            maxLen?: number;
            /**
             * @description the message id as a template (default: the occurrence id); placeholders: {key}, {scheduleId}, {scheduledFor}, {scheduledForSeconds}, {scheduledForIso}, {occurrenceId}, {runId}, {tenant}
             * @example {key}-{scheduledForSeconds}
             */
            idTemplate?: string;
          };
        }
      | {
          nats: {
            /** @description the operator's nats connection */
            connection: string;
            subject: string;
            /**
             * @description the message id as a template (default: the occurrence id); placeholders: {key}, {scheduleId}, {scheduledFor}, {scheduledForSeconds}, {scheduledForIso}, {occurrenceId}, {runId}, {tenant}
             * @example {key}-{scheduledForSeconds}
             */
            idTemplate?: string;
          };
        }
      | {
          amqp: {
            /** @description the operator's amqp connection */
            connection: string;
            /** @description default: the default exchange */
            exchange?: string;
            routingKey: string;
            /**
             * @description the message id as a template (default: the occurrence id); placeholders: {key}, {scheduleId}, {scheduledFor}, {scheduledForSeconds}, {scheduledForIso}, {occurrenceId}, {runId}, {tenant}
             * @example {key}-{scheduledForSeconds}
             */
            idTemplate?: string;
          };
        }
      | {
          script: {
            /**
             * @description an ES module whose default export is called with ctx; compiled when saved
             * @example export default (ctx) => ctx.payload
             */
            source: string;
            /** @description wall time of a run (up to the operator's maximum) */
            timeoutMs?: number;
            /** @description memory of a run (up to the operator's maximum) */
            memoryMb?: number;
          };
        }
      | {
          /** @description a program run on the service's machine, as the service's user; only when the operator enabled commands for the tenant (docs/commands.md) */
          command: {
            /**
             * @description the program (an absolute path) and its arguments; with shell: true, exactly one string: the command line for /bin/sh -c
             * @example [
             *       "/usr/bin/env",
             *       "date"
             *     ]
             */
            argv: string[];
            /** @description run argv[0] as a command line with /bin/sh -c (default false) */
            shell?: boolean;
            /** @description absolute working directory (default: the service's) */
            cwd?: string;
            /** @description extra environment variables, over a minimal environment (PATH, HOME, LANG...) */
            env?: {
              [key: string]: string;
            };
            /** @description text written to the command's standard input */
            stdin?: string;
            /** @description wall time before the whole process group is killed (default 60000, at most 86400000) */
            timeoutMs?: number;
          };
        };
    CalendarDate: {
      /**
       * @description a date YYYY-MM-DD in the calendar zone
       * @example 2026-12-25
       */
      start: string;
      /**
       * @description inclusive
       * @example 2026-12-25
       */
      end: string;
      label: string | null;
    };
    Calendar: {
      name: string;
      tz: string;
      dates: components['schemas']['CalendarDate'][];
      workingDays: ('mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun')[] | null;
      description: string | null;
      version: number;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      updatedAt: string;
    };
    CalendarDetail: {
      name: string;
      tz: string;
      dates: components['schemas']['CalendarDate'][];
      workingDays: ('mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun')[] | null;
      description: string | null;
      version: number;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      updatedAt: string;
      /** @description the keys of up to 10 schedules (by key) whose exclude or businessDays names the calendar */
      usedBy: string[];
    };
    CalendarImport: {
      name: string;
      tz: string;
      dates: components['schemas']['CalendarDate'][];
      workingDays: ('mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun')[] | null;
      description: string | null;
      version: number;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      updatedAt: string;
      /** @description events left out: a time of day, a recurrence other than yearly */
      skipped: {
        summary: string | null;
        why: string;
      }[];
    };
    CalendarList: {
      items: components['schemas']['Calendar'][];
    };
    /** @description keep to the working days of a calendar: skip, or roll to the next / previous working day at the same local time */
    BusinessDays: {
      calendar: string;
      /** @enum {string} */
      roll: 'skip' | 'next' | 'previous';
    };
    Policies: {
      retry: {
        maxAttempts: number;
        /** @enum {string} */
        backoff: 'fixed' | 'exponential';
        delayMs: number;
        maxDelayMs: number;
        jitter: boolean;
      };
      timeoutMs: number;
      /** @enum {string} */
      overlap: 'allow' | 'skip' | 'bufferOne' | 'bufferAll' | 'cancelPrevious';
      /** @enum {string} */
      misfire: 'skip' | 'runOnce' | 'runAll';
      catchupWindowMs: number;
      maxCatchup: number;
      deadlineMs: number | null;
      priority: number;
      maxChecks: number;
      checkHorizonMs: number;
    };
    /** @description what a fixed local time does at a DST change (cron and RRULE only): gap shift (run right after the gap) or skip; repeat first (first pass) or both; see docs/time.md */
    DstChoice: {
      /** @enum {string} */
      gap: 'shift' | 'skip';
      /** @enum {string} */
      repeat: 'first' | 'both';
    };
    /** @description each occurrence must succeed within successWithin of its start, or an expectation_breached alert opens (1s to 31 days); see docs/alerts.md */
    ScheduleExpect: {
      successWithinMs: number;
    };
    Schedule: {
      key: string;
      spec: string;
      tz: string;
      /** @description generated from the spec, in English */
      description: string;
      /** @description the user's own free text */
      summary: string | null;
      labels: {
        [key: string]: string;
      };
      /** @description the DST choice in force; null for @every and @at */
      dst: components['schemas']['DstChoice'] | null;
      /** @description calendars whose dates skip an occurrence */
      exclude: string[];
      businessDays: components['schemas']['BusinessDays'] | null;
      /** @description what each occurrence must achieve; null for nothing */
      expect: components['schemas']['ScheduleExpect'] | null;
      target: components['schemas']['Target'];
      payload: unknown;
      policies: components['schemas']['Policies'];
      startAt: string | null;
      endAt: string | null;
      maxRuns: number | null;
      jitterMs: number;
      /** @enum {string} */
      state: 'active' | 'paused' | 'completed';
      version: number;
      /** @description when it fires next: its earliest pending run, else its next occurrence; null while paused or when none remains */
      nextFireAt: string | null;
      /** @description runs executed to an outcome (succeeded or dead); not occurrences materialised */
      firedCount: number;
      /** @description occurrences materialised so far: what maxRuns limits */
      materializedCount: number;
      /** @description when the latest executed run started delivery; null when none yet */
      lastFiredAt: string | null;
      /** @description when a run last succeeded; null when none yet */
      lastSucceededAt: string | null;
      /** @description the note given when it was paused */
      note: string | null;
      /** @description a timed pause resumes by itself at this instant; null otherwise */
      pausedUntil: string | null;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      updatedAt: string;
    };
    BulkScheduleResult: {
      /** @description position of the item in the body (0-based) */
      index: number;
      /** @description line of the item in an NDJSON body (1-based) */
      line?: number;
      key: string | null;
      /** @enum {string} */
      outcome: 'created' | 'updated' | 'unchanged' | 'refused';
      /** @description the version saved (absent when refused) */
      version?: number;
      /** @description why the item was refused */
      error?: {
        code: string;
        message: string;
        details: {
          [key: string]: unknown;
        };
      };
    };
    BulkSchedulesResult: {
      items: components['schemas']['BulkScheduleResult'][];
      totals: {
        created: number;
        updated: number;
        unchanged: number;
        refused: number;
      };
      dryRun: boolean;
    };
    /** @description what the target kept beside the message; other fields over 4096 characters of JSON are replaced by { omitted: <characters> } */
    RunErrorDetails: {
      /** @description a script's log lines (at most 16384 characters shown; a last line counts the rest) */
      logs?: string[];
      /** @description a failed script's stack (at most 4096 characters); other stacks stay in the service's log */
      stack?: string;
      /** @description the end of a command's standard output (its last 16384 characters shown) */
      stdout?: string;
      /** @description the end of a command's standard error (its last 16384 characters shown) */
      stderr?: string;
    } & {
      [key: string]: unknown;
    };
    Run: {
      id: string;
      scheduleKey: string;
      occurrenceId: string;
      /** @enum {string} */
      kind: 'scheduled' | 'manual' | 'backfill';
      /** @enum {string} */
      state: 'scheduled' | 'running' | 'succeeded' | 'dead' | 'skipped' | 'expired' | 'cancelled';
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      scheduledFor: string;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      dueAt: string;
      expiresAt: string | null;
      startedAt: string | null;
      finishedAt: string | null;
      attempt: number;
      maxAttempts: number;
      checks: number;
      reason: string | null;
      error: {
        code?: string;
        message: string;
        details?: components['schemas']['RunErrorDetails'];
      } | null;
      result: unknown;
      details: unknown;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      createdAt: string;
    };
    Attempt: {
      attempt: number;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      startedAt: string;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      finishedAt: string;
      outcome: string;
      error: {
        code?: string;
        message: string;
        details?: components['schemas']['RunErrorDetails'];
      } | null;
      result: unknown;
    };
    RunDetail: {
      id: string;
      scheduleKey: string;
      occurrenceId: string;
      /** @enum {string} */
      kind: 'scheduled' | 'manual' | 'backfill';
      /** @enum {string} */
      state: 'scheduled' | 'running' | 'succeeded' | 'dead' | 'skipped' | 'expired' | 'cancelled';
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      scheduledFor: string;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      dueAt: string;
      expiresAt: string | null;
      startedAt: string | null;
      finishedAt: string | null;
      attempt: number;
      maxAttempts: number;
      checks: number;
      reason: string | null;
      error: {
        code?: string;
        message: string;
        details?: components['schemas']['RunErrorDetails'];
      } | null;
      result: unknown;
      details: unknown;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      createdAt: string;
      attempts: components['schemas']['Attempt'][];
    };
    RerunResult: {
      /** @description the runs scheduled again, due now */
      runs: components['schemas']['Run'][];
      /** @description runs of the range left as they were (RUN_NOT_RERUNNABLE) */
      refused: {
        id: string;
        code: string;
        message: string;
      }[];
    };
    PreviewNote:
      | {
          /** @constant */
          kind: 'dstShifted';
          /**
           * @description local wall-clock time
           * @example 2026-03-29T02:30:00
           */
          asked: string;
          /**
           * @description local wall-clock time
           * @example 2026-03-29T02:30:00
           */
          used: string;
        }
      | {
          /** @constant */
          kind: 'dstRepeat';
          pass: 1 | 2;
        }
      | {
          /** @constant */
          kind: 'rolled';
          /** @enum {string} */
          rule: 'next' | 'previous';
          calendar: string;
          /**
           * Format: date-time
           * @example 2026-01-05T09:00:00.000Z
           */
          from: string;
        }
      | {
          /** @constant */
          kind: 'moved';
          /**
           * Format: date-time
           * @example 2026-01-05T09:00:00.000Z
           */
          from: string;
        }
      | {
          /** @constant */
          kind: 'payloadOverridden';
        };
    PreviewOccurrence: {
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      at: string;
      notes: components['schemas']['PreviewNote'][];
    };
    PreviewDropped: {
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      at: string;
      /** @enum {string} */
      reason:
        | 'dstGap'
        | 'dstRepeat'
        | 'exdate'
        | 'calendar'
        | 'notWorkingDay'
        | 'override'
        | 'beforeStart'
        | 'afterEnd';
      /** @description for calendar and notWorkingDay */
      calendar?: string;
      /** @description the calendar date's label, when it has one */
      label?: string;
    };
    Preview: {
      description: string;
      /** @description the instants of `occurrences`, kept for older clients */
      next: string[];
      occurrences: components['schemas']['PreviewOccurrence'][];
      /** @description with explain: the candidates dropped up to the last occurrence, in order */
      dropped?: components['schemas']['PreviewDropped'][];
      /** @description the DST choice in force; null for @every and @at */
      dst: components['schemas']['DstChoice'] | null;
    };
    Tenant: {
      name: string;
      /** @enum {string} */
      state: 'active' | 'disabled';
      quotas: {
        maxSchedules: number | null;
        maxRunsPerMinute: number | null;
        requestsPerSecond: number | null;
      };
      /** @description Standard Webhooks signing secret (whsec_...) */
      webhookSecret: string;
      /** @description until then, webhook requests also carry a signature with the previous secret */
      previousSecretExpiresAt: string | null;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      createdAt: string;
    };
    KvEntry: {
      key: string;
      /** @description the JSON value */
      value: unknown;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      updatedAt: string;
    };
    /** @description only the parts that differ from the version before */
    CalendarDiff: {
      /** @description dates and ranges, with their labels, in one version only; a relabel is both */
      dates?: {
        added: components['schemas']['CalendarDate'][];
        removed: components['schemas']['CalendarDate'][];
      };
      workingDays?: {
        from: ('mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun')[] | null;
        to: ('mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun')[] | null;
      };
      tz?: {
        from: string | null;
        to: string | null;
      };
      description?: {
        from: string | null;
        to: string | null;
      };
    };
    CalendarRevision: {
      name: string;
      /** @description the version after the change (a delete: the version deleted) */
      version: number;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      at: string;
      /** @description who made it: apiKey:<id> (with the key name), library... */
      actor: string | null;
      /** @enum {string} */
      change: 'created' | 'updated' | 'deleted' | 'rolledBack';
      /** @description the version a rollback restored */
      fromVersion: number | null;
      diff: components['schemas']['CalendarDiff'];
    };
    CalendarRevisionDetail: {
      name: string;
      /** @description the version after the change (a delete: the version deleted) */
      version: number;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      at: string;
      /** @description who made it: apiKey:<id> (with the key name), library... */
      actor: string | null;
      /** @enum {string} */
      change: 'created' | 'updated' | 'deleted' | 'rolledBack';
      /** @description the version a rollback restored */
      fromVersion: number | null;
      diff: components['schemas']['CalendarDiff'];
      /** @description the full content of that version: what a rollback restores */
      content: {
        tz: string;
        dates: components['schemas']['CalendarDate'][];
        workingDays: ('mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun')[] | null;
        description: string | null;
      };
    };
    CalendarRollbackResult: {
      calendar: components['schemas']['Calendar'];
      /** @description false: that content is the current one; nothing was written (no new version) */
      changed: boolean;
      fromVersion: number;
    };
    Alert: {
      id: string;
      /** @enum {string} */
      kind:
        | 'expectation_breached'
        | 'heartbeat_missed'
        | 'deadline_missed'
        | 'schedule_not_fired'
        | 'run_dead'
        | 'failure_rate'
        | 'spec_exhausted';
      /** @enum {string} */
      subjectKind: 'schedule' | 'check';
      /** @description the schedule key or the check name */
      subject: string;
      /** @enum {string} */
      state: 'open' | 'resolved';
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      openedAt: string;
      resolvedAt: string | null;
      summary: string;
      /** @description what the condition saw (run id, last heartbeat...) */
      details: unknown;
    };
    AlertDelivery: {
      id: string;
      channel: string;
      /** @enum {string} */
      transition: 'opened' | 'resolved';
      /** @enum {string} */
      state: 'pending' | 'delivered' | 'failed';
      attempts: number;
      nextAttemptAt: string | null;
      deliveredAt: string | null;
      lastError: string | null;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      createdAt: string;
    };
    AlertDetail: {
      alert: components['schemas']['Alert'];
      deliveries: components['schemas']['AlertDelivery'][];
    };
    AlertChannel: {
      name: string;
      /** @enum {string} */
      kind: 'webhook' | 'slack' | 'pagerduty';
      url: string;
      routingKey: string | null;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      updatedAt: string;
    };
    CheckDeadline: {
      schedule: string;
      spec: string;
      tz: string;
      withinMs: number;
    };
    Check: {
      name: string;
      /** @enum {string} */
      kind: 'heartbeat' | 'deadline';
      /** @description heartbeat checks; null for a deadline check */
      everyMs: number | null;
      /** @description deadline checks; null for a heartbeat check */
      deadline: components['schemas']['CheckDeadline'] | null;
      /** @description deadline checks: the start of the window watched (judged at its close) */
      windowStart: string | null;
      lastBeatAt: string | null;
      /** @description when it is judged next: a heartbeat's due instant (null while its alert is open), a deadline window's close (null when its spec opens no more) */
      nextCheckAt: string | null;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      updatedAt: string;
    };
    OccurrenceOverride: {
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      instant: string;
      /** @enum {string} */
      kind: 'skip' | 'move' | 'payload';
      moveTo: string | null;
      payload: unknown;
      note: string | null;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      createdAt: string;
    };
    Occurrence: {
      /**
       * Format: date-time
       * @description the nominal instant: the identity of its run
       * @example 2026-01-05T09:00:00.000Z
       */
      scheduledFor: string;
      /** @description when it runs (moveTo when moved); null when skipped */
      at: string | null;
      override: components['schemas']['OccurrenceOverride'] | null;
    };
    PutScheduleResult: {
      key: string;
      spec: string;
      tz: string;
      /** @description generated from the spec, in English */
      description: string;
      /** @description the user's own free text */
      summary: string | null;
      labels: {
        [key: string]: string;
      };
      /** @description the DST choice in force; null for @every and @at */
      dst: components['schemas']['DstChoice'] | null;
      /** @description calendars whose dates skip an occurrence */
      exclude: string[];
      businessDays: components['schemas']['BusinessDays'] | null;
      /** @description what each occurrence must achieve; null for nothing */
      expect: components['schemas']['ScheduleExpect'] | null;
      target: components['schemas']['Target'];
      payload: unknown;
      policies: components['schemas']['Policies'];
      startAt: string | null;
      endAt: string | null;
      maxRuns: number | null;
      jitterMs: number;
      /** @enum {string} */
      state: 'active' | 'paused' | 'completed';
      version: number;
      /** @description when it fires next: its earliest pending run, else its next occurrence; null while paused or when none remains */
      nextFireAt: string | null;
      /** @description runs executed to an outcome (succeeded or dead); not occurrences materialised */
      firedCount: number;
      /** @description occurrences materialised so far: what maxRuns limits */
      materializedCount: number;
      /** @description when the latest executed run started delivery; null when none yet */
      lastFiredAt: string | null;
      /** @description when a run last succeeded; null when none yet */
      lastSucceededAt: string | null;
      /** @description the note given when it was paused */
      note: string | null;
      /** @description a timed pause resumes by itself at this instant; null otherwise */
      pausedUntil: string | null;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      updatedAt: string;
      droppedOverrides: components['schemas']['OccurrenceOverride'][];
    };
    /** @description field -> {from, to}: only the fields that differ */
    ScheduleDiff: {
      [key: string]: {
        from: unknown;
        to: unknown;
      };
    };
    RevisionContent: {
      spec: string;
      specKind: string;
      tz: string;
      description: string;
      summary: string | null;
      labels: {
        [key: string]: string;
      };
      /** @description the DST choice of that version; null for the defaults */
      dst: components['schemas']['DstChoice'] | null;
      /** @description the calendars of that version (exclude, businessDays); null for none */
      calendarRules: {
        exclude: string[];
        businessDays: components['schemas']['BusinessDays'] | null;
      } | null;
      /** @description the expectation of that version; null for none */
      expect: components['schemas']['ScheduleExpect'] | null;
      target: components['schemas']['Target'];
      payload: unknown;
      policies: components['schemas']['Policies'];
      startAt: string | null;
      endAt: string | null;
      maxRuns: number | null;
      jitterMs: number;
    };
    Revision: {
      key: string;
      /** @description the version after the change (pause, resume, delete keep it) */
      version: number;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      at: string;
      /** @description who made it: apiKey:<id> (with the key name), library, declared... */
      actor: string | null;
      /** @enum {string} */
      change: 'created' | 'updated' | 'paused' | 'resumed' | 'deleted' | 'rolledBack';
      /** @description the version a rollback restored */
      fromVersion: number | null;
      /** @enum {string} */
      state: 'active' | 'paused' | 'completed' | 'deleted';
      diff: components['schemas']['ScheduleDiff'];
    };
    RevisionDetail: {
      key: string;
      /** @description the version after the change (pause, resume, delete keep it) */
      version: number;
      /**
       * Format: date-time
       * @example 2026-01-05T09:00:00.000Z
       */
      at: string;
      /** @description who made it: apiKey:<id> (with the key name), library, declared... */
      actor: string | null;
      /** @enum {string} */
      change: 'created' | 'updated' | 'paused' | 'resumed' | 'deleted' | 'rolledBack';
      /** @description the version a rollback restored */
      fromVersion: number | null;
      /** @enum {string} */
      state: 'active' | 'paused' | 'completed' | 'deleted';
      diff: components['schemas']['ScheduleDiff'];
      content: components['schemas']['RevisionContent'];
    };
    RollbackResult: {
      schedule: components['schemas']['Schedule'];
      /** @description false: that content is the current one; nothing was written (no new version) */
      changed: boolean;
      fromVersion: number;
    };
    DryRun: {
      /** @constant */
      dryRun: true;
      /** @enum {string} */
      outcome: 'created' | 'updated' | 'unchanged';
      currentVersion: number | null;
      nextVersion: number;
      diff: components['schemas']['ScheduleDiff'];
      /** @description the next 10 fire times of the stored schedule */
      nextBefore: string[];
      /** @description the next 10 fire times after the change */
      nextAfter: string[];
      /** @description the pending runs the change would cancel (reason updated) */
      cancelled: {
        id: string;
        /**
         * Format: date-time
         * @example 2026-01-05T09:00:00.000Z
         */
        scheduledFor: string;
      }[];
      cancelledTruncated: boolean;
      /** @description the occurrence overrides the change would drop (their occurrences are gone) */
      droppedOverrides: components['schemas']['OccurrenceOverride'][];
    };
    MetricsSnapshot: {
      /**
       * Format: date-time
       * @description when the values were read
       */
      at: string;
      samples: {
        /** @description series name; histograms give name_bucket, name_sum, name_count */
        name: string;
        labels: {
          [key: string]: string;
        };
        value: number;
      }[];
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getHealthz: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            status: string;
            checks?: {
              [key: string]: string;
            };
          };
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getReadyz: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            status: string;
            checks?: {
              [key: string]: string;
            };
          };
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getMetrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSchedulesByKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Schedule'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  putSchedulesByKey: {
    parameters: {
      query?: {
        /** @description true: answer what the put would do, writing nothing */
        dryRun?: 'true' | 'false';
      };
      header?: {
        /** @description the version the update expects: 3, "3" or W/"3" (409 VERSION_CONFLICT when stale) */
        'if-match'?: string;
      };
      path: {
        /** @description tenant-unique schedule key */
        key: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PutScheduleInput'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PutScheduleResult'] | components['schemas']['DryRun'];
        };
      };
      /** @description Created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PutScheduleResult'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a conflict: VERSION_CONFLICT, RUN_NOT_CANCELLABLE, ... */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteSchedulesByKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No Content */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSchedules: {
    parameters: {
      query?: {
        state?: 'active' | 'paused' | 'completed';
        target?: 'handler' | 'webhook' | 'redis' | 'nats' | 'amqp' | 'script' | 'command';
        keyPrefix?: string;
        /** @description key:value; repeat it to require several labels (all must match) */
        label?: string | string[];
        /** @description nextCursor of the previous page */
        cursor?: string;
        /** @description page size, 1-1000 (default 100) */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Schedule'][];
            nextCursor: string | null;
          };
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postSchedulesByKeyPause: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': {
          /** @description also cancel the runs already scheduled */
          cancelPending?: boolean;
          note?: string;
          /** @description a timed pause: the schedule resumes by itself at this instant (in the future) */
          until?: string | number;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Schedule'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postSchedulesByKeyResume: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': Record<string, never>;
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Schedule'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postSchedulesByKeyTrigger: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': {
          /** @description replaces the schedule's payload for this run */
          payload?: unknown;
        };
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Run'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postSchedulesByKeyBackfill: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * Format: date-time
           * @description ISO-8601 instant with Z or an offset
           * @example 2026-01-05T09:00:00Z
           */
          from: string;
          /**
           * Format: date-time
           * @description ISO-8601 instant with Z or an offset
           * @example 2026-01-05T09:00:00Z
           */
          to: string;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            runs: components['schemas']['Run'][];
          };
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postSchedulesByKeyRerun: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RerunRangeInput'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RerunResult'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSchedulesByKeyRuns: {
    parameters: {
      query?: {
        state?: 'scheduled' | 'running' | 'succeeded' | 'dead' | 'skipped' | 'expired' | 'cancelled';
        /** @description scheduledFor at or after this instant */
        from?: string;
        /** @description scheduledFor before this instant */
        to?: string;
        /** @description nextCursor of the previous page */
        cursor?: string;
        /** @description page size, 1-1000 (default 100) */
        limit?: number;
      };
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Run'][];
            nextCursor: string | null;
          };
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postSchedulesBulk: {
    parameters: {
      query?: {
        /** @description true: validate and classify every item, write nothing */
        dryRun?: 'true' | 'false';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description 1 to 5000 schedules as a JSON array (application/json), or one per line (application/x-ndjson) */
    requestBody: {
      content: {
        'application/json': unknown[];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkSchedulesResult'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSchedulesByKeyRevisions: {
    parameters: {
      query?: {
        /** @description nextCursor of the previous page */
        cursor?: string;
        /** @description page size, 1-1000 (default 100) */
        limit?: number;
      };
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Revision'][];
            nextCursor: string | null;
          };
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSchedulesByKeyRevisionsByVersion: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
        version: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RevisionDetail'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postSchedulesByKeyRollback: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          version: number;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RollbackResult'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a conflict: VERSION_CONFLICT, RUN_NOT_CANCELLABLE, ... */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSchedulesByKeyOccurrences: {
    parameters: {
      query?: {
        count?: number;
      };
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            key: string;
            occurrences: components['schemas']['Occurrence'][];
          };
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  putSchedulesByKeyOccurrencesByInstant: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
        /** @description the occurrence's nominal instant (its runs' scheduledFor) */
        instant: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description skip: do not run it; move: run it at moveTo instead; payload: run it with this payload
           * @enum {string}
           */
          kind: 'skip' | 'move' | 'payload';
          /**
           * Format: date-time
           * @description move only: the instant it runs at (in the future)
           * @example 2026-01-05T09:00:00Z
           */
          moveTo?: string;
          /** @description payload only: the payload this occurrence carries */
          payload?: unknown;
          /** @description why, kept in the run */
          note?: string;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            override: components['schemas']['OccurrenceOverride'];
            /** @description the pending run it changed or wrote now; null when not materialised yet */
            run: {
              id: string;
              state: string;
              /**
               * Format: date-time
               * @example 2026-01-05T09:00:00.000Z
               */
              dueAt: string;
            } | null;
          };
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a conflict: VERSION_CONFLICT, RUN_NOT_CANCELLABLE, ... */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteSchedulesByKeyOccurrencesByInstant: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
        /** @description the occurrence's nominal instant (its runs' scheduledFor) */
        instant: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No Content */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getRuns: {
    parameters: {
      query?: {
        state?: 'scheduled' | 'running' | 'succeeded' | 'dead' | 'skipped' | 'expired' | 'cancelled';
        /** @description tenant-unique schedule key */
        scheduleKey?: string;
        /** @description scheduledFor at or after this instant */
        from?: string;
        /** @description scheduledFor before this instant */
        to?: string;
        /** @description nextCursor of the previous page */
        cursor?: string;
        /** @description page size, 1-1000 (default 100) */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Run'][];
            nextCursor: string | null;
          };
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getRunsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RunDetail'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postRunsByIdCancel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': Record<string, never>;
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Run'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a conflict: VERSION_CONFLICT, RUN_NOT_CANCELLABLE, ... */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postRunsByIdRerun: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': Record<string, never>;
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Run'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a conflict: VERSION_CONFLICT, RUN_NOT_CANCELLABLE, ... */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postPreview: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          spec: string;
          tz?: string;
          /**
           * Format: date-time
           * @description as if saved at this instant (default now): occurrences at or after it; an @every without startAt is anchored here, so it starts at from + interval
           * @example 2026-01-05T09:00:00Z
           */
          from?: string;
          /** @description default 5 */
          count?: number;
          startAt?: string | null;
          endAt?: string | null;
          dst?: {
            /** @enum {string} */
            gap?: 'shift' | 'skip';
            /** @enum {string} */
            repeat?: 'first' | 'both';
          } | null;
          /** @description also list the candidates that were dropped, and why (`dropped`) */
          explain?: boolean;
          /**
           * @description calendars whose dates skip an occurrence (recorded as skipped, reason calendar)
           * @example [
           *       "de-holidays"
           *     ]
           */
          exclude?: string[] | null;
          /** @description keep to the working days of a calendar: skip, or roll to the next / previous working day at the same local time */
          businessDays?: {
            calendar: string;
            /**
             * @description default skip
             * @enum {string}
             */
            roll?: 'skip' | 'next' | 'previous';
          } | null;
          /** @description calendars given with the preview (not saved): a name in exclude / businessDays is looked up here first, then among the stored calendars */
          calendars?: {
            name: string;
            tz?: string;
            dates?: (
              | string
              | {
                  /**
                   * @description a date YYYY-MM-DD in the calendar zone
                   * @example 2026-12-25
                   */
                  start: string;
                  /**
                   * @description the last day, inclusive (default: start)
                   * @example 2026-12-25
                   */
                  end?: string;
                  label?: string | null;
                }
            )[];
            workingDays?: string[] | null;
          }[];
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Preview'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSchedulesByKeyPreview: {
    parameters: {
      query?: {
        /** @description default 10 */
        count?: number;
        /** @description true: also list the candidates that were dropped, and why (`dropped`) */
        explain?: 'true' | 'false';
      };
      header?: never;
      path: {
        /** @description tenant-unique schedule key */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Preview'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getTenant: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Tenant'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postTenantWebhookSecretRotate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': Record<string, never>;
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Tenant'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getKv: {
    parameters: {
      query?: {
        /** @description only keys starting with this text (literally: no wildcard) */
        prefix?: string;
        /** @description nextCursor of the previous page */
        cursor?: string;
        /** @description page size, 1-1000 (default 100) */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['KvEntry'][];
            nextCursor: string | null;
          };
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getKvByKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description 1-256 characters, no control characters; percent-encode it in the path */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['KvEntry'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  putKvByKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description 1-256 characters, no control characters; percent-encode it in the path */
        key: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['KvValueInput'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['KvEntry'];
        };
      };
      /** @description Created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['KvEntry'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteKvByKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description 1-256 characters, no control characters; percent-encode it in the path */
        key: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No Content */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getCalendars: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CalendarList'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getCalendarsByName: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description 1-100 letters, digits and . _ - (starting with a letter or digit) */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CalendarDetail'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  putCalendarsByName: {
    parameters: {
      query?: never;
      header?: {
        /** @description the version the update expects: 3, "3" or W/"3" (409 VERSION_CONFLICT when stale) */
        'if-match'?: string;
      };
      path: {
        /** @description 1-100 letters, digits and . _ - (starting with a letter or digit) */
        name: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PutCalendarInput'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Calendar'];
        };
      };
      /** @description Created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Calendar'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a conflict: VERSION_CONFLICT, RUN_NOT_CANCELLABLE, ... */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteCalendarsByName: {
    parameters: {
      query?: never;
      header?: {
        /** @description the version the update expects: 3, "3" or W/"3" (409 VERSION_CONFLICT when stale) */
        'if-match'?: string;
      };
      path: {
        /** @description 1-100 letters, digits and . _ - (starting with a letter or digit) */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No Content */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a conflict: VERSION_CONFLICT, RUN_NOT_CANCELLABLE, ... */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postCalendarsByNameImport: {
    parameters: {
      query?: never;
      header?: {
        /** @description the version the update expects: 3, "3" or W/"3" (409 VERSION_CONFLICT when stale) */
        'if-match'?: string;
      };
      path: {
        /** @description 1-100 letters, digits and . _ - (starting with a letter or digit) */
        name: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ImportCalendarInput'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CalendarImport'];
        };
      };
      /** @description Created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CalendarImport'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a conflict: VERSION_CONFLICT, RUN_NOT_CANCELLABLE, ... */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getCalendarsByNameRevisions: {
    parameters: {
      query?: {
        /** @description nextCursor of the previous page */
        cursor?: string;
        /** @description page size, 1-1000 (default 100) */
        limit?: number;
      };
      header?: never;
      path: {
        /** @description 1-100 letters, digits and . _ - (starting with a letter or digit) */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['CalendarRevision'][];
            nextCursor: string | null;
          };
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getCalendarsByNameRevisionsByVersion: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description 1-100 letters, digits and . _ - (starting with a letter or digit) */
        name: string;
        version: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CalendarRevisionDetail'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postCalendarsByNameRollback: {
    parameters: {
      query?: never;
      header?: {
        /** @description the version the update expects: 3, "3" or W/"3" (409 VERSION_CONFLICT when stale) */
        'if-match'?: string;
      };
      path: {
        /** @description 1-100 letters, digits and . _ - (starting with a letter or digit) */
        name: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          version: number;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CalendarRollbackResult'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a conflict: VERSION_CONFLICT, RUN_NOT_CANCELLABLE, ... */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getAlerts: {
    parameters: {
      query?: {
        state?: 'open' | 'resolved';
        /** @description only alerts about this schedule key */
        schedule?: string;
        /** @description at most this many, newest first (default 100) */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Alert'][];
          };
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getAlertsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertDetail'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getAlertChannels: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['AlertChannel'][];
          };
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getAlertChannelsByName: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description a letter or digit, then up to 127 letters, digits and . _ : - */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertChannel'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  putAlertChannelsByName: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description a letter or digit, then up to 127 letters, digits and . _ : - */
        name: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AlertChannelBodyInput'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertChannel'];
        };
      };
      /** @description Created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertChannel'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteAlertChannelsByName: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description a letter or digit, then up to 127 letters, digits and . _ : - */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No Content */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getChecks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Check'][];
          };
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getChecksByName: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description a letter or digit, then up to 127 letters, digits and . _ : - */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Check'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  putChecksByName: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description a letter or digit, then up to 127 letters, digits and . _ : - */
        name: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CheckBodyInput'];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Check'];
        };
      };
      /** @description Created */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Check'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteChecksByName: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description a letter or digit, then up to 127 letters, digits and . _ : - */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No Content */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postHeartbeatsByName: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description a letter or digit, then up to 127 letters, digits and . _ : - */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': Record<string, never>;
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Check'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description a library NOT_FOUND code (the schedule, run, key or tenant does not exist) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description BODY_TOO_LARGE (or a key-value value over its limit) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI_TOO_LONG: a path segment longer than any key or id */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE: the body is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getMetricsJson: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MetricsSnapshot'];
        };
      };
      /** @description VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description UNAUTHORIZED: no valid API key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description INTERNAL: the service failed (never caused by request content) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description NOT_READY: starting, stopping, or the database does not answer (Retry-After) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
}
type FlattenedDeepRequired<T> = {
  [K in keyof T]-?: FlattenedDeepRequired<
    T[K] extends unknown[] | undefined | null ? Extract<T[K], unknown[]>[number] : T[K]
  >;
};
type ReadonlyArray<T> = [Exclude<T, undefined>] extends [unknown[]]
  ? Readonly<Exclude<T, undefined>>
  : Readonly<Exclude<T, undefined>[]>;
export const pathsV1SchedulesKeyPutParametersQueryDryRunValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/v1/schedules/{key}']['put']['parameters']['query']['dryRun']
> = ['true', 'false'];
export const pathsV1SchedulesGetParametersQueryStateValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/v1/schedules']['get']['parameters']['query']['state']
> = ['active', 'paused', 'completed'];
export const pathsV1SchedulesGetParametersQueryTargetValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/v1/schedules']['get']['parameters']['query']['target']
> = ['handler', 'webhook', 'redis', 'nats', 'amqp', 'script', 'command'];
export const pathsV1SchedulesKeyRunsGetParametersQueryStateValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/v1/schedules/{key}/runs']['get']['parameters']['query']['state']
> = ['scheduled', 'running', 'succeeded', 'dead', 'skipped', 'expired', 'cancelled'];
export const pathsV1SchedulesBulkPostParametersQueryDryRunValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/v1/schedules/bulk']['post']['parameters']['query']['dryRun']
> = ['true', 'false'];
export const pathsV1SchedulesKeyOccurrencesInstantPutRequestBodyContentApplicationJsonKindValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/v1/schedules/{key}/occurrences/{instant}']['put']['requestBody']['content']['application/json']['kind']
> = ['skip', 'move', 'payload'];
export const pathsV1RunsGetParametersQueryStateValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/v1/runs']['get']['parameters']['query']['state']
> = ['scheduled', 'running', 'succeeded', 'dead', 'skipped', 'expired', 'cancelled'];
export const pathsV1PreviewPostRequestBodyContentApplicationJsonDstAnyOf0GapValues: ReadonlyArray<
  Extract<
    FlattenedDeepRequired<paths>['/v1/preview']['post']['requestBody']['content']['application/json']['dst'],
    {
      gap: unknown;
    }
  >['gap']
> = ['shift', 'skip'];
export const pathsV1PreviewPostRequestBodyContentApplicationJsonDstAnyOf0RepeatValues: ReadonlyArray<
  Extract<
    FlattenedDeepRequired<paths>['/v1/preview']['post']['requestBody']['content']['application/json']['dst'],
    {
      repeat: unknown;
    }
  >['repeat']
> = ['first', 'both'];
export const pathsV1PreviewPostRequestBodyContentApplicationJsonBusinessDaysAnyOf0RollValues: ReadonlyArray<
  Extract<
    FlattenedDeepRequired<paths>['/v1/preview']['post']['requestBody']['content']['application/json']['businessDays'],
    {
      roll: unknown;
    }
  >['roll']
> = ['skip', 'next', 'previous'];
export const pathsV1SchedulesKeyPreviewGetParametersQueryExplainValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/v1/schedules/{key}/preview']['get']['parameters']['query']['explain']
> = ['true', 'false'];
export const pathsV1AlertsGetParametersQueryStateValues: ReadonlyArray<
  FlattenedDeepRequired<paths>['/v1/alerts']['get']['parameters']['query']['state']
> = ['open', 'resolved'];
export const targetInputAnyOf1WebhookMethodValues: ReadonlyArray<
  Extract<
    Extract<
      FlattenedDeepRequired<components>['schemas']['TargetInput'],
      {
        webhook: unknown;
      }
    >['webhook'],
    {
      method: unknown;
    }
  >['method']
> = ['POST', 'PUT', 'PATCH'];
export const putCalendarInputWorkingDaysAnyOf0Values: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['PutCalendarInput']['workingDays']
> = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
export const importCalendarInputWorkingDaysAnyOf0Values: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['ImportCalendarInput']['workingDays']
> = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
export const putScheduleInputPoliciesRetryBackoffValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['PutScheduleInput']['policies']['retry']['backoff']
> = ['fixed', 'exponential'];
export const putScheduleInputPoliciesOverlapValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['PutScheduleInput']['policies']['overlap']
> = ['allow', 'skip', 'bufferOne', 'bufferAll', 'cancelPrevious'];
export const putScheduleInputPoliciesMisfireValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['PutScheduleInput']['policies']['misfire']
> = ['skip', 'runOnce', 'runAll'];
export const putScheduleInputDstAnyOf0GapValues: ReadonlyArray<
  Extract<
    FlattenedDeepRequired<components>['schemas']['PutScheduleInput']['dst'],
    {
      gap: unknown;
    }
  >['gap']
> = ['shift', 'skip'];
export const putScheduleInputDstAnyOf0RepeatValues: ReadonlyArray<
  Extract<
    FlattenedDeepRequired<components>['schemas']['PutScheduleInput']['dst'],
    {
      repeat: unknown;
    }
  >['repeat']
> = ['first', 'both'];
export const putScheduleInputBusinessDaysAnyOf0RollValues: ReadonlyArray<
  Extract<
    FlattenedDeepRequired<components>['schemas']['PutScheduleInput']['businessDays'],
    {
      roll: unknown;
    }
  >['roll']
> = ['skip', 'next', 'previous'];
export const putScheduleInputStateValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['PutScheduleInput']['state']
> = ['active', 'paused'];
export const rerunRangeInputStatesValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['RerunRangeInput']['states']
> = ['succeeded', 'dead', 'skipped', 'expired', 'cancelled'];
export const alertChannelBodyInputKindValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['AlertChannelBodyInput']['kind']
> = ['webhook', 'slack', 'pagerduty'];
export const checkBodyInputKindValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['CheckBodyInput']['kind']
> = ['heartbeat', 'deadline'];
export const targetAnyOf1WebhookMethodValues: ReadonlyArray<
  Extract<
    Extract<
      FlattenedDeepRequired<components>['schemas']['Target'],
      {
        webhook: unknown;
      }
    >['webhook'],
    {
      method: unknown;
    }
  >['method']
> = ['POST', 'PUT', 'PATCH'];
export const calendarWorkingDaysAnyOf0Values: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Calendar']['workingDays']
> = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
export const calendarDetailWorkingDaysAnyOf0Values: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['CalendarDetail']['workingDays']
> = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
export const calendarImportWorkingDaysAnyOf0Values: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['CalendarImport']['workingDays']
> = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
export const businessDaysRollValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['BusinessDays']['roll']
> = ['skip', 'next', 'previous'];
export const policiesRetryBackoffValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Policies']['retry']['backoff']
> = ['fixed', 'exponential'];
export const policiesOverlapValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Policies']['overlap']
> = ['allow', 'skip', 'bufferOne', 'bufferAll', 'cancelPrevious'];
export const policiesMisfireValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Policies']['misfire']
> = ['skip', 'runOnce', 'runAll'];
export const dstChoiceGapValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DstChoice']['gap']
> = ['shift', 'skip'];
export const dstChoiceRepeatValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DstChoice']['repeat']
> = ['first', 'both'];
export const scheduleStateValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Schedule']['state']
> = ['active', 'paused', 'completed'];
export const bulkScheduleResultOutcomeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['BulkScheduleResult']['outcome']
> = ['created', 'updated', 'unchanged', 'refused'];
export const runKindValues: ReadonlyArray<FlattenedDeepRequired<components>['schemas']['Run']['kind']> = [
  'scheduled',
  'manual',
  'backfill',
];
export const runStateValues: ReadonlyArray<FlattenedDeepRequired<components>['schemas']['Run']['state']> = [
  'scheduled',
  'running',
  'succeeded',
  'dead',
  'skipped',
  'expired',
  'cancelled',
];
export const runDetailKindValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['RunDetail']['kind']
> = ['scheduled', 'manual', 'backfill'];
export const runDetailStateValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['RunDetail']['state']
> = ['scheduled', 'running', 'succeeded', 'dead', 'skipped', 'expired', 'cancelled'];
export const previewNoteOneOf2RuleValues: ReadonlyArray<
  Extract<
    FlattenedDeepRequired<components>['schemas']['PreviewNote'],
    {
      rule: unknown;
    }
  >['rule']
> = ['next', 'previous'];
export const previewDroppedReasonValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['PreviewDropped']['reason']
> = ['dstGap', 'dstRepeat', 'exdate', 'calendar', 'notWorkingDay', 'override', 'beforeStart', 'afterEnd'];
export const tenantStateValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Tenant']['state']
> = ['active', 'disabled'];
export const calendarDiffWorkingDaysFromAnyOf0Values: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['CalendarDiff']['workingDays']['from']
> = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
export const calendarDiffWorkingDaysToAnyOf0Values: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['CalendarDiff']['workingDays']['to']
> = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
export const calendarRevisionChangeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['CalendarRevision']['change']
> = ['created', 'updated', 'deleted', 'rolledBack'];
export const calendarRevisionDetailChangeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['CalendarRevisionDetail']['change']
> = ['created', 'updated', 'deleted', 'rolledBack'];
export const calendarRevisionDetailContentWorkingDaysAnyOf0Values: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['CalendarRevisionDetail']['content']['workingDays']
> = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
export const alertKindValues: ReadonlyArray<FlattenedDeepRequired<components>['schemas']['Alert']['kind']> = [
  'expectation_breached',
  'heartbeat_missed',
  'deadline_missed',
  'schedule_not_fired',
  'run_dead',
  'failure_rate',
  'spec_exhausted',
];
export const alertSubjectKindValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Alert']['subjectKind']
> = ['schedule', 'check'];
export const alertStateValues: ReadonlyArray<FlattenedDeepRequired<components>['schemas']['Alert']['state']> =
  ['open', 'resolved'];
export const alertDeliveryTransitionValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['AlertDelivery']['transition']
> = ['opened', 'resolved'];
export const alertDeliveryStateValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['AlertDelivery']['state']
> = ['pending', 'delivered', 'failed'];
export const alertChannelKindValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['AlertChannel']['kind']
> = ['webhook', 'slack', 'pagerduty'];
export const checkKindValues: ReadonlyArray<FlattenedDeepRequired<components>['schemas']['Check']['kind']> = [
  'heartbeat',
  'deadline',
];
export const occurrenceOverrideKindValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['OccurrenceOverride']['kind']
> = ['skip', 'move', 'payload'];
export const putScheduleResultStateValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['PutScheduleResult']['state']
> = ['active', 'paused', 'completed'];
export const revisionChangeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Revision']['change']
> = ['created', 'updated', 'paused', 'resumed', 'deleted', 'rolledBack'];
export const revisionStateValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['Revision']['state']
> = ['active', 'paused', 'completed', 'deleted'];
export const revisionDetailChangeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['RevisionDetail']['change']
> = ['created', 'updated', 'paused', 'resumed', 'deleted', 'rolledBack'];
export const revisionDetailStateValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['RevisionDetail']['state']
> = ['active', 'paused', 'completed', 'deleted'];
export const dryRunOutcomeValues: ReadonlyArray<
  FlattenedDeepRequired<components>['schemas']['DryRun']['outcome']
> = ['created', 'updated', 'unchanged'];
