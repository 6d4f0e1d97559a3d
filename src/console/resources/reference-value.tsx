/**
 * A reference (`x-ref`) in a list cell or card: the referenced row's label (./reference-labels); a
 * row that could not be named (deleted, or one the caller may not read) shows its `#id` with a
 * quiet marker and an explanation on hover, never an error; `#id` in grey while the labels load.
 * Several ids (a list field) are joined with 、 in Japanese and `, ` elsewhere.
 */
import { Fragment, memo } from 'react';
import { useTranslation } from 'react-i18next';
import { refIds, type ReferenceLabels } from './reference-labels';

export const ReferenceValue = memo(function ReferenceValue({ resource, value, labels }: { resource: string; value: unknown; labels: ReferenceLabels }) {
  const { t, i18n } = useTranslation();
  const ids = refIds(value);
  const separator = i18n.language === 'ja' || i18n.language === 'zh' ? '、' : ', ';
  return (
    <span>
      {ids.map((id, i) => {
        const state = labels.get(resource, id);
        return (
          <Fragment key={id}>
            {i > 0 && separator}
            {typeof state === 'object' ? (
              <span data-ref-id={id}>{state.label}</span>
            ) : state === 'loading' ? (
              <span data-ref-id={id} className="ref-value-pending">{`#${id}`}</span>
            ) : (
              <span data-ref-id={id} data-ref-missing="" className="ref-value-missing" title={t('lists.rows.refUnavailable')}>
                {`#${id}`}
                <sup aria-hidden="true">?</sup>
                <span className="visually-hidden">{t('lists.rows.refUnavailable')}</span>
              </span>
            )}
          </Fragment>
        );
      })}
    </span>
  );
});
