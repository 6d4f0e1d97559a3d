/**
 * What the generated form hands its widgets besides their own value (RJSF `formContext`,
 * ./resource-form): the whole form's values and `patch`, which sets several fields at once — the
 * map widgets write a point's two coordinates, or a circle's centre and radius, in one step.
 */
export interface FormPatchContext {
  formData?: Record<string, unknown>;
  patch: (values: Record<string, unknown>) => void;
  /** Column spans of the antd theme's object template (./form-layout `formColumns`). */
  colSpan?: number | Record<string, number>;
}
