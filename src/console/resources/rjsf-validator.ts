/**
 * The RJSF validator: ajv8 with this project's keywords and formats (`x-future`, `x-after`, the
 * `#RRGGBB` colour format) from the shared `extendAjv`, so forms check exactly what the server checks.
 */
import { customizeValidator } from '@rjsf/validator-ajv8';
import { extendAjv } from '@/shared/validation';

export const validator = customizeValidator({
  extenderFn: (ajv) => {
    // RJSF registers a looser `color` format; the spec's is '#' and six hexadecimal digits (000 5).
    delete (ajv.formats as Record<string, unknown>).color;
    return extendAjv(ajv);
  },
});
