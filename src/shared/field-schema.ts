/**
 * The type of one field of a resource schema (`schemas/*.schema.json` properties, with the `x-` keys
 * of schemas/meta/resource.schema.json), apart from the registry that reads it (./registry.ts
 * re-exports it).
 */
import type { Role } from './roles';

/** A field of a resource schema; only the keys this project reads are typed. */
export interface FieldSchema {
  type: string | string[];
  title: string;
  description?: string;
  enum?: string[];
  format?: string;
  maxLength?: number;
  minLength?: number;
  readOnly?: boolean;
  default?: unknown;
  'x-messages'?: Record<string, string>;
  'x-widget'?: 'textarea' | 'image-url' | 'color' | 'date' | 'time' | 'password' | 'richtext' | 'business-hours' | 'video-links' | 'members' | 'municipalities';
  'x-enum-labels'?: string[];
  'x-future'?: boolean;
  'x-after'?: string;
  'x-not-after'?: string;
  'x-gt'?: string;
  'x-gte'?: string;
  'x-lte'?: string;
  'x-continuous'?: { start: string; end: string };
  'x-ref'?: string;
  /** The value names a user (the hand-written users table) of the record's city, by `username` or `id`. */
  'x-ref-user'?: 'username' | 'id';
  'x-upload'?: { kind: 'image' | 'pdf' | 'image-or-pdf'; maxItems?: number };
  /** Why a field whose name says image, photo, avatar, thumbnail or file takes no upload (`npm run validate`). */
  'x-no-upload'?: string;
  'x-coerce'?: 'array';
  'x-drop-null'?: boolean;
  'x-hidden-in-list'?: boolean;
  /** On a longitude field: it and the sibling latitude field `lat` are one point, picked on a map. */
  'x-geo-point'?: { lat: string };
  /** On a radius in metres: the map area (circle or polygon) of a push by map and where it writes. */
  'x-map-area'?: { lat: string; lng: string; polygon?: string; when?: { field: string; value: string } };
  /**
   * Field permissions (docs/architecture.md 'Field permissions'): the roles that may read the field
   * and those that may write it, within the resource's own permissions; absent: the resource's.
   * Made CASL field rules by src/shared/ability.ts.
   */
  'x-permissions'?: { read?: Array<Role | '*'>; write?: Array<Role | '*'> };
  /** The field applies only while the sibling `field` holds one of `in` (src/shared/visibility.ts). */
  'x-visible-when'?: { field: string; in: Array<string | number | boolean> };
  items?: Record<string, unknown>;
  minimum?: number;
  maximum?: number;
}
