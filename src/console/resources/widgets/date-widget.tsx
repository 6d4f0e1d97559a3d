/**
 * RJSF widgets of a date and of a date and time (`format: date`, `format: date-time`): the antd
 * theme's DatePicker widgets, with Enter in the picker's input confirming only the picker (000 4
 * forms: one save per intent). The browser submits a form on Enter in any of its text inputs
 * (implicit submission); the picker does not stop that, so the form would be saved with the date
 * the user was still picking. `PickerKeys` stops it for any picker, ./time-widget too.
 */
import type { KeyboardEvent, ReactNode } from 'react';
import { Widgets } from '@rjsf/antd';
import type { WidgetProps } from '@rjsf/utils';

/**
 * Keeps Enter pressed in a picker's input from submitting the form (000 4 forms). It listens as the
 * key bubbles, after the picker has confirmed the typed value or opened its panel; Enter on a
 * button of the panel (OK, now) keeps its click.
 */
export function PickerKeys({ children }: { children: ReactNode }) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement) event.preventDefault();
  };
  return <div onKeyDown={onKeyDown}>{children}</div>;
}

/** A date (`YYYY-MM-DD`): the antd theme's DateWidget inside `PickerKeys`. */
export function DateWidget(props: WidgetProps) {
  return (
    <PickerKeys>
      <Widgets.DateWidget {...props} />
    </PickerKeys>
  );
}

/** A date and time (an ISO instant): the antd theme's DateTimeWidget inside `PickerKeys`. */
export function DateTimeWidget(props: WidgetProps) {
  return (
    <PickerKeys>
      <Widgets.DateTimeWidget {...props} />
    </PickerKeys>
  );
}
