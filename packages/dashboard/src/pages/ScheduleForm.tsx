// Create or edit a schedule: a control for every field, the live description and next fire times from the
// preview endpoint as the spec and zone are typed, the API's errors next to the field they name, and the raw
// request that Save will send. Editing sends If-Match with the version it loaded; "Check changes" shows what
// saving would do (a dry run, nothing written). It owns the form's state, its loading and its saving; the
// fieldsets (WhenFields, TargetFields, PolicyFields) and the request shown (RequestPanel) only render what it
// hands them and must never hold form state of their own.
import { useEffect, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { formControls } from '../components/FormControls.tsx';
import { TargetFields } from '../components/TargetFields.tsx';
import { DryRunPanel } from '../components/DryRunPanel.tsx';
import { Layout } from '../components/Layout.tsx';
import { Link } from '../components/Link.tsx';
import { PolicyFields } from '../components/PolicyFields.tsx';
import { PreviewPanel } from '../components/PreviewPanel.tsx';
import { RequestPanel } from '../components/RequestPanel.tsx';
import { Status } from '../components/Status.tsx';
import { WhenFields } from '../components/WhenFields.tsx';
import { TARGET_KINDS, type DryRun, type Schedule } from '../api.ts';
import { useSession } from '../lib/context.ts';
import { mapApiError } from '../lib/errors.ts';
import {
  buildBody,
  emptyForm,
  FIELD_PATHS,
  fieldId,
  formFromSchedule,
  keyProblem,
  KNOWN_PATHS,
  type FormField,
  type FormState,
  keepUnedited,
} from '../lib/form.ts';
import { useNow } from '../lib/hooks.ts';
import { useInvalidate } from '../lib/query.ts';
import { navigate, paths } from '../lib/router.ts';
import { useSpecPreview } from '../lib/spec-preview.ts';
import { viewerZone } from '../lib/time.ts';

const HANDLER_NOTE =
  'A handler runs only in an application that embeds the library and registers it; this service has none, ' +
  'so its runs wait for such an application.';

export interface ScheduleFormProps {
  /** The key of the schedule to edit; absent to create one. */
  editKey?: string;
  /** Preview debounce in ms (tests shorten it). */
  previewDelayMs?: number;
}

export function ScheduleForm({ editKey, previewDelayMs = 250 }: ScheduleFormProps) {
  const { api } = useSession();
  const invalidate = useInvalidate();
  const now = useNow();
  const editing = editKey !== undefined;
  const [form, setForm] = useState<FormState>(() => emptyForm(viewerZone()));
  const [version, setVersion] = useState<number | undefined>(undefined);
  const [loaded, setLoaded] = useState<Schedule | undefined>(undefined);
  const [loadState, setLoadState] = useState<{ loading: boolean; error: unknown }>({
    loading: editing,
    error: undefined,
  });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [unsupported, setUnsupported] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (!editing) return;
    const abort = new AbortController();
    api.getSchedule(editKey, abort.signal).then(
      (s) => {
        const kind = Object.keys(s.target ?? {})[0] ?? '';
        if (!(TARGET_KINDS as readonly string[]).includes(kind)) {
          // Saving would replace a target this dashboard cannot show: refuse rather than lose it.
          setUnsupported(
            `This schedule's target kind "${kind}" is not one this dashboard knows; edit it through the API.`,
          );
        }
        setForm(formFromSchedule(s));
        setLoaded(s);
        setVersion(s.version);
        setLoadState({ loading: false, error: undefined });
      },
      (e) => {
        if (!abort.signal.aborted) setLoadState({ loading: false, error: e });
      },
    );
    return () => abort.abort();
  }, [api, editing, editKey]);

  const preview = useSpecPreview(api, form, { editing, delayMs: previewDelayMs });
  const built = useMemo(() => buildBody(form), [form]);
  const previewErrors = useMemo(
    () =>
      preview.error
        ? mapApiError(preview.error, ['spec', 'tz', 'exclude', 'businessDays.calendar', 'businessDays.roll'])
            .fields
        : {},
    [preview.error],
  );
  const clientErrors: Record<string, string> = { ...(submitted ? built.errors : {}) };
  if (!editing && submitted) {
    const k = keyProblem(form.key.trim());
    if (k) clientErrors.key = `Key ${k}`;
  }
  const errors: Record<string, string> = { ...previewErrors, ...clientErrors, ...serverErrors };

  const set =
    (name: FormField) =>
    (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>): void => {
      const value = e.target.value;
      setForm((f) => ({ ...f, [name]: value }));
      const path = FIELD_PATHS[name];
      if (serverErrors[path] !== undefined) {
        setServerErrors((s) => {
          const next = { ...s };
          delete next[path];
          return next;
        });
      }
    };

  const focusFirst = (paths: string[]): void => {
    const order = KNOWN_PATHS.filter((p) => paths.includes(p));
    const el = order[0] ? document.getElementById(fieldId(order[0])) : null;
    el?.focus();
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setSubmitted(true);
    setGeneral(null);
    setServerErrors({});
    const key = editing ? editKey : form.key.trim();
    const local = { ...built.errors };
    const kp = keyProblem(key);
    if (kp) local.key = `Key ${kp}`;
    if (Object.keys(local).length > 0) {
      setStatus('Some fields need attention before saving.');
      focusFirst(Object.keys(local));
      return;
    }
    setSaving(true);
    setStatus('Saving…');
    try {
      const saved = await api.putSchedule(key, keepUnedited(built.body, loaded), version);
      setStatus('Saved.');
      void invalidate();
      navigate(paths.schedule(saved.key ?? key));
    } catch (err) {
      const mapped = mapApiError(err, KNOWN_PATHS);
      setServerErrors(mapped.fields);
      setGeneral(mapped.general);
      const n = Object.keys(mapped.fields).length;
      setStatus(
        n > 0
          ? `The service refused ${n === 1 ? 'a field' : `${n} fields`}; see the messages next to them.`
          : 'Not saved.',
      );
      if (n > 0) focusFirst(Object.keys(mapped.fields));
      else formRef.current?.querySelector<HTMLElement>('.form-error')?.focus();
    } finally {
      setSaving(false);
    }
  };

  // "Check changes": the service answers what saving would do, writing nothing.
  const [dryRun, setDryRun] = useState<{ result?: DryRun; error?: unknown } | null>(null);
  const check = (): void => {
    api.dryRunSchedule(editKey ?? '', keepUnedited(built.body, loaded), version).then(
      (result) => setDryRun({ result }),
      (error: unknown) => setDryRun({ error }),
    );
  };

  const controls = formControls(form, errors, set);
  const { field, select } = controls;
  // `punctual serve` has no handlers: offer the kind only to show a schedule that already has one.
  const kinds = TARGET_KINDS.filter((k) => k !== 'handler' || form.targetKind === 'handler');

  const tz = form.tz.trim() || 'UTC';
  const requestKey = editing ? editKey : form.key.trim();
  const title = editing ? `Edit ${editKey}` : 'New schedule';

  return (
    <Layout title={title}>
      <p className="crumbs">
        <Link href={paths.schedules()}>Schedules</Link> /{' '}
        {editing && (
          <>
            <Link href={paths.schedule(editKey)}>{editKey}</Link> /
          </>
        )}
      </p>
      <h1>{title}</h1>
      {editing && <Status loading={loadState.loading} error={loadState.error} />}
      <div className="form-layout">
        <form ref={formRef} onSubmit={submit} noValidate aria-label={title} className="schedule-form">
          {unsupported && (
            <p className="form-error" role="alert" data-testid="form-unsupported">
              {unsupported}
            </p>
          )}
          {general && (
            <p className="form-error" role="alert" tabIndex={-1} data-testid="form-error">
              {general}
            </p>
          )}
          <WhenFields controls={controls} editing={editing} tz={tz} />
          <fieldset>
            <legend>Target</legend>
            {field(
              'targetKind',
              'Kind',
              select('targetKind', kinds),
              form.targetKind === 'handler'
                ? HANDLER_NOTE
                : 'Handlers are left out: they run in an application that embeds the library, never in this service.',
            )}
            <TargetFields form={form} controls={controls} set={set} />
            {field(
              'payload',
              'Payload (JSON)',
              <textarea
                name="payload"
                rows={4}
                value={form.payload}
                onChange={set('payload')}
                spellCheck={false}
                className="mono"
                placeholder='{"team": "sales"}'
              />,
              'Optional: any JSON value handed to the target with every run.',
            )}
          </fieldset>
          <PolicyFields controls={controls} />
          <div className="actions sticky-actions">
            <button
              type="submit"
              className="primary"
              disabled={saving || loadState.loading || unsupported !== null}
            >
              {saving ? 'Saving…' : editing ? 'Save changes' : 'Create schedule'}
            </button>
            {editing && (
              <button type="button" onClick={check} disabled={saving || unsupported !== null}>
                Check changes
              </button>
            )}
            <Link className="button" href={editing ? paths.schedule(editKey) : paths.schedules()}>
              Cancel
            </Link>
            <p className="status" role="status" aria-live="polite" data-testid="form-status">
              {status ?? ''}
            </p>
          </div>
        </form>
        <aside className="form-side" aria-label="Preview and request">
          {dryRun && <DryRunPanel result={dryRun.result} error={dryRun.error} tz={tz} now={now} />}
          <PreviewPanel
            heading="Preview"
            preview={preview.data}
            error={preview.error}
            loading={preview.loading}
            tz={tz}
            now={now}
          />
          <RequestPanel requestKey={requestKey} version={version} built={built} />
        </aside>
      </div>
    </Layout>
  );
}
