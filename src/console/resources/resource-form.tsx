/**
 * The generated create and edit page of any resource (docs/architecture.md 'Console'): RJSF with the antd
 * theme from the resource's JSON Schema. Titles and enum labels translated; read-only fields left
 * out on create; `x-widget` picks the widget; every validation message is the spec's (both message
 * and stack, through the shared mapping); the server's field errors show under their fields; on
 * success 保存しました。 and back to the list. Text inputs with a maxLength show 'current / max'.
 * Unsaved input (docs/architecture.md 'Beyond the spec') sets Refine's `warnWhen`: leaving the page or closing the tab asks first.
 * Widgets by field kind (./field-kinds): switch, number input, multi-select, tags, date/time pickers,
 * reference select (`x-ref`) and upload (`x-upload`). A singleton's settings page passes its own id
 * and what to do when done. Loading and saving go through Refine's `useForm`: mode `clone` is its
 * clone action (000 4 modal mode douplicate), the create form filled from the row `:id` as
 * ./clone-values leaves it, titled as a copy; saving creates a new record, the row is not touched.
 * One save per intent (000 4 forms): a submit while a save is in flight, or after it succeeded and
 * before the page leaves, is ignored (the save button loading and disabled); Enter in a date or
 * time picker confirms the picker only (./widgets/date-widget).
 * No row is invented: an optional array starts empty (its `minItems` applies once it has rows) and an
 * emptied optional list is not sent; fields that do not apply to the values (`x-visible-when`) are
 * neither shown nor sent (./form-schema `formValues`). A create that sends (a push,
 * `x-resource.form.recipients`) shows whom it reaches as the values change and asks before saving
 * 「N 人に送信します。よろしいですか？」 (./recipient-count).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useForm, useWarnAboutChange, type BaseRecord, type HttpError } from '@refinedev/core';
import { Alert, App as AntdApp, Button, Card, Flex, Result, Typography, theme } from 'antd';
import Form from '@rjsf/antd';
import type { IChangeEvent } from '@rjsf/core';
import type { ErrorSchema } from '@rjsf/utils';
import { useAbility } from '@casl/react';
import { ownedRowsOf, type AppAbility } from '@/shared/ability';
import { errorNotification } from '../providers/error-notification';
import { Loading } from '../components/loading';
import { cityPath } from './city-path';
import { cloneValues } from './clone-values';
import { CountedInputTemplate } from './counted-input-template';
import { CountedTextareaWidget } from './counted-textarea-widget';
import { buildFormSchema, formDataOf, formValues, shownFields, type FormMode } from './form-schema';
import { areaComplete, confirmText, fetchRecipientCount, RecipientCount, useRecipientCount } from './recipient-count';
import { localizeErrors, serverErrorSchema } from './localize-errors';
import type { ResourceRoute } from './resource-routes';
import { validator } from './rjsf-validator';
import { useStoredRowErrors } from './use-stored-row-errors';
import type { FormPatchContext } from './form-context';
import { DateTimeWidget, DateWidget } from './widgets/date-widget';
import { GeoPointWidget } from './widgets/geo-point-widget';
import { MapAreaWidget } from './widgets/map-area-widget';
import { ReadOnlyWidget } from './widgets/read-only-widget';
import { RefSelectWidget } from './widgets/ref-select-widget';
import { LookupSelectWidget } from './widgets/lookup-select-widget';
import { SwitchWidget } from './widgets/switch-widget';
import { TagsWidget } from './widgets/tags-widget';
import { TimeWidget } from './widgets/time-widget';
import { UploadWidget } from './widgets/upload-widget';
import { FORM_BUTTONS, formStrings } from './form-buttons';
import { formColumns } from './form-layout';
import { FormSectionsTemplate } from './form-sections-template';
import { useIsMobile } from '../hooks/use-is-mobile';
import { BusinessHoursField } from './fields/business-hours-field';
import { DateTimeRangeField, PeriodListField } from './fields/period-fields';
import { VideoLinksField } from './fields/video-links-field';
import { ReadOnlyField } from './fields/read-only-field';
import { readableDef, useFieldAccess } from './field-access';
import './resource-form.css';

const templates = { BaseInputTemplate: CountedInputTemplate, ButtonTemplates: FORM_BUTTONS, ObjectFieldTemplate: FormSectionsTemplate };
/** Whole fields by the names ./field-kinds gives (`ui:field`). */
const fields = { readOnlyValue: ReadOnlyField, businessHours: BusinessHoursField, videoLinks: VideoLinksField, periodList: PeriodListField, dateTimeRange: DateTimeRangeField };
/**
 * Widgets by the names ./field-kinds gives (the rest are RJSF's antd theme's); `date` and
 * `date-time` resolve to DateWidget and DateTimeWidget.
 */
const widgets = {
  TextareaWidget: CountedTextareaWidget,
  DateWidget,
  DateTimeWidget,
  switch: SwitchWidget,
  tags: TagsWidget,
  clock: TimeWidget,
  ref: RefSelectWidget,
  lookup: LookupSelectWidget,
  upload: UploadWidget,
  'geo-point': GeoPointWidget,
  'map-area': MapAreaWidget,
  'read-only': ReadOnlyWidget,
};

/**
 * RJSF's default form state: an array is filled up to its `minItems` only when the field is
 * required (an optional polygon starts with no vertex rather than three empty ones).
 */
/** No field (a stable empty list). */
const NO_FIELDS: readonly string[] = [];

const DEFAULT_FORM_STATE = { arrayMinItems: { populate: 'requiredOnly' as const } };

export interface ResourceFormProps {
  route: ResourceRoute;
  mode: FormMode;
  /** The record to edit (default: the route's `:id`); a singleton passes its fixed key. */
  id?: string;
  /** Called after a save or on cancel (default: back to the list, page 1). */
  onDone?: () => void;
}

export function ResourceForm({ route, mode, id: idProp, onDone }: ResourceFormProps) {
  // Field permissions (./field-access.ts): unreadable fields are not in the form; fields the user may
  // not write are shown as text when editing and left out of a new record (it gets their defaults).
  const access = useFieldAccess(route.resource);
  const def = useMemo(
    () => (mode === 'edit' ? access.def : readableDef(access.def, Object.keys(access.def.schema.properties).filter((f) => !access.unwritable.includes(f)))),
    [access, mode],
  );
  const unwritable = mode === 'edit' ? access.unwritable : NO_FIELDS;
  const { t, i18n } = useTranslation();
  const strings = useMemo(() => formStrings(t), [t]);
  const navigate = useNavigate();
  const { message, modal } = AntdApp.useApp();
  const { city = '', id: idParam } = useParams();
  const id = idProp ?? idParam;
  const [extraErrors, setExtraErrors] = useState<ErrorSchema | undefined>();
  const [draft, setDraft] = useState<Record<string, unknown> | undefined>();
  // Input the user typed and did not save makes a navigation or a tab close ask first.
  const { warnWhen, setWarnWhen } = useWarnAboutChange();
  // Set after a save: leave once the guard has seen `warnWhen` false (a navigation in the same
  // render would still be asked about).
  const [saved, setSaved] = useState(false);
  // 000 4 forms, one save per intent: set when a submit starts, cleared when its save is refused or
  // the page has left. The ref answers at once (a second Enter or click can come before React
  // renders); the state shows it on the button.
  const inFlight = useRef(false);
  const [submitting, setSubmitting] = useState(false);

  const transformErrors = useMemo(() => localizeErrors(def.schema, (k, p) => t(k, p)), [def, t]);

  // Refine's form actions: edit reads the row and updates it; clone reads it and creates a new one.
  const { query, onFinish, mutation } = useForm<BaseRecord, HttpError, Record<string, unknown>>({
    resource: route.identifier,
    action: mode,
    id: mode === 'create' ? undefined : id,
    meta: { city },
    redirect: false,
    successNotification: false,
    errorNotification,
    queryOptions: { enabled: mode !== 'create' && !!id, retry: false },
  });
  const result = query?.data?.data;
  const saving = mutation.isPending || submitting;

  const copy = useMemo(() => (mode === 'clone' && result ? cloneValues(def, result) : undefined), [def, result, mode]);
  const loaded = useMemo(() => (mode === 'edit' ? formDataOf(def, result, mode) : copy?.values), [def, result, mode, copy]);
  const formData = useMemo(() => (draft ?? (loaded ? formValues(def, loaded) : undefined)), [def, draft, loaded]);
  // The fields that apply to the values (`x-visible-when`): the schema changes only when they do.
  const shown = shownFields(def, mode, formData ?? {}).join();
  // The fields the session's own-row limits name (an Advertiser's shop): required, the server refuses a row without them.
  const ability = useAbility<AppAbility>();
  const owned = useMemo(
    () => (ownedRowsOf(ability, mode === 'edit' ? 'update' : 'create', def.name, def) ?? []).filter((o) => !o.through).map((o) => o.field),
    [ability, mode, def],
  );
  // eslint-disable-next-line react-hooks/exhaustive-deps -- rebuilt when the shown fields change, not on every keystroke
  const { schema, uiSchema } = useMemo(() => buildFormSchema(def, mode, (k) => t(k), formData ?? {}, owned, unwritable), [def, mode, t, shown, owned, unwritable]);
  // A row stored under an older schema opens with its failing fields marked (docs/architecture.md 'Changing an entity').
  const stored = useStoredRowErrors(schema, mode === 'edit' ? loaded : undefined, formData, transformErrors);
  // The map widgets set several fields in one step (./form-context): a point's two coordinates.
  const patch = useCallback(
    (values: Record<string, unknown>) => {
      setDraft((prev) => formValues(def, { ...(prev ?? loaded ?? {}), ...values }));
      setWarnWhen(true);
    },
    [def, loaded, setWarnWhen],
  );
  const recipients = mode === 'edit' ? undefined : def.form.recipients;
  const count = useRecipientCount(recipients, city, recipients && areaComplete(def, formData ?? {}) ? (formData ?? {}) : undefined);
  const mobile = useIsMobile();
  const { token } = theme.useToken();
  const colSpan = useMemo(() => formColumns(Object.keys(schema.properties ?? {}).length, mobile), [schema, mobile]);
  const formContext = useMemo<FormPatchContext>(() => ({ formData, patch, colSpan }), [formData, patch, colSpan]);
  // 000 4: after a create the list shows page 1 (the list URL without paging parameters).
  const backToList = useMemo(() => onDone ?? (() => navigate(cityPath(city, route.list))), [onDone, navigate, city, route.list]);

  useEffect(() => {
    if (saved && !warnWhen) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- state reset or loaded when its inputs change; the React Compiler leaves this function as written
      setSaved(false);
      backToList();
      inFlight.current = false;
      setSubmitting(false);
    }
  }, [saved, warnWhen, backToList]);

  /** Whether the user goes ahead with a create that sends (asked with the count of now; no question when the count is refused: the save shows why). */
  const confirmSend = async (values: Record<string, unknown>): Promise<boolean> => {
    if (!recipients) return true;
    const n = await fetchRecipientCount(recipients, city, values);
    if (n === undefined) return true;
    return new Promise<boolean>((resolve) => {
      modal.confirm({
        title: t('push.confirm.title'),
        content: confirmText(recipients, values, n, (k, p) => t(k, p), i18n.language),
        okText: t('push.confirm.ok'),
        cancelText: t('actions.cancel'),
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      });
    });
  };

  const submit = async ({ formData: data }: IChangeEvent<Record<string, unknown>>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setSubmitting(true);
    setExtraErrors(undefined);
    const values = formValues(def, data ?? {});
    // useForm clears the unsaved-input guard before its call: a refused save puts it back.
    const unsaved = warnWhen;
    try {
      if (!(await confirmSend(values))) {
        inFlight.current = false;
        setSubmitting(false);
        return;
      }
      await onFinish(mode === 'edit' ? { ...values, version: result?.version } : values);
      setWarnWhen(false);
      message.success({ content: t('messages.saved'), key: 'saved' });
      setSaved(true);
    } catch (e) {
      inFlight.current = false;
      setSubmitting(false);
      if (unsaved) setWarnWhen(true);
      // 001 8: the server's `fields` (e.g. a user's email or username) flag the fields on the form.
      setExtraErrors(serverErrorSchema((e as HttpError).errors as Record<string, string[]> | undefined));
    }
  };

  const failed = !!query?.isError;
  const missing = mode !== 'create' && failed && !def.singleton;
  if (missing) return <Result status="404" subTitle={t('pages.notFound')} extra={<Button onClick={backToList}>{t('actions.list')}</Button>} />;
  // A singleton without a stored record yet is edited from empty.
  if (mode !== 'create' && !failed && (query?.isLoading || !result)) return <Loading />;

  return (
    <Card>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t(`pages.${mode}Title`, { resource: t(route.title), id })}
      </Typography.Title>
      {copy && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('pages.cloneNote', { id })}
          description={copy.cleared.length > 0 ? t('pages.cloneCleared', { fields: new Intl.ListFormat(i18n.language).format(copy.cleared.map((f) => t(def.schema.properties[f].title))) }) : undefined}
        />
      )}
      {stored.failing.length > 0 && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t('pages.storedRowFails')} />}
      <Form
        className="generated-form"
        schema={schema}
        uiSchema={uiSchema}
        formData={formData}
        formContext={formContext}
        validator={validator}
        templates={templates}
        translateString={strings}
        fields={fields}
        widgets={widgets}
        transformErrors={transformErrors}
        extraErrors={extraErrors ?? stored.errorSchema}
        showErrorList={false}
        noHtml5Validate
        experimental_defaultFormStateBehavior={DEFAULT_FORM_STATE}
        onChange={(e, fieldId) => {
          setDraft(formValues(def, e.formData ?? {}));
          // RJSF names the field of a user's edit; a change without one is RJSF filling in defaults.
          if (fieldId) setWarnWhen(true);
        }}
        onSubmit={submit}
        disabled={saving}
      >
        {recipients && <RecipientCount count={count} />}
        <Flex gap={8} justify="end" className="form-actions" style={{ background: token.colorBgContainer }}>
          <Button onClick={backToList}>{t('actions.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={saving} disabled={saving}>
            {t('actions.save')}
          </Button>
        </Flex>
      </Form>
    </Card>
  );
}
