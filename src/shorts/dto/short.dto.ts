import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { ShortOwnerDto } from '../../account/dto/owner.dto';
import { TeamRefDto } from '../../access/team-ref.dto';
import { MAX_RULES } from '../../shared/redirect-rules';
import { MAX_TAGS } from '../../shared/tags';
import {
  type FieldsWith,
  fieldsWith,
  OTHER_FIELDS,
  placeFields,
  SHORT_FIELDS,
  type ShortFieldSpec,
  type ShownSpec,
} from '../../shared/short-fields';
import { RedirectRuleDto } from './redirect-rule.dto';
import { SocialPreviewDto } from './social-preview.dto';
import { QR_STYLE_DESCRIPTION, QrStyleDto } from './qr-style.dto';
import { BROKEN_AFTER_FAILURES, HEALTH_STATES, type HealthState } from '../../shared/link-health';

/** The link health of a short: how the checks of its target went (owners and admins only). */
export class ShortHealthDto {
  @ApiProperty({
    enum: HEALTH_STATES,
    enumName: 'HealthState',
    description: `ok: the last check got an answer that is no failure; broken: ${BROKEN_AFTER_FAILURES} failed checks in a row (any 4xx/5xx except 401, 403, 429, or no answer); unknown: not checked yet, failing fewer than ${BROKEN_AFTER_FAILURES} times in a row, or not checkable from this server`,
  })
  state: HealthState;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The HTTP status of the last check; null: no answer (or not checked)',
    example: 200,
  })
  status: number | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  checkedAt: string | null;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'The first of the failed checks in a row; null while the target answers',
  })
  failingSince: string | null;
}

/** A short's own properties: those of its answer that are no field of the table. */
export interface ShortOwnProperties {
  id: string;
  /** The link to share. */
  shortUrl: string;
  hasPassword: boolean;
  createdAt: string;
  owner: ShortOwnerDto | null;
  dangers: boolean;
  uses?: number;
  visits?: number;
  health?: ShortHealthDto;
}

/** The schemas of a short's own properties (`required: false`: only in some views). */
const OWN_SCHEMAS: Record<keyof ShortOwnProperties, ApiPropertyOptions> = {
  id: { type: 'string', format: 'uuid' },
  shortUrl: {
    type: 'string',
    description: 'The link to share ({BASE_URL}/s/{code}, or {scheme}://{domain}/{code})',
    example: 'https://short.example/s/aB3dE5f',
  },
  hasPassword: { type: 'boolean' },
  createdAt: { type: 'string', format: 'date-time' },
  owner: { type: ShortOwnerDto, nullable: true },
  dangers: { type: 'boolean', description: 'Flagged dangerous or blacklisted' },
  uses: {
    type: 'integer',
    required: false,
    description: 'Uses counted (follows that reached the target, bots excluded); owners only',
  },
  visits: {
    type: 'integer',
    required: false,
    description:
      'Visits in the statistics (bots excluded; older than the retention not counted); owners only',
  },
  health: {
    type: ShortHealthDto,
    required: false,
    description:
      'How the checks of the target went (logged-in shorts are checked about once a day); owners and admins only',
  },
} as Record<keyof ShortOwnProperties, ApiPropertyOptions>;

/** The shown fields (src/shared/short-fields.ts: rows with `shown`). */
export type ShownField = FieldsWith<'shown'>;
type ShownSpecOf<K extends ShownField> = (typeof SHORT_FIELDS)[K]['shown'];
/** A shown field's value in the answer, by its type. */
type ShownValue<K extends ShownField> =
  | ((typeof SHORT_FIELDS)[K]['type'] extends 'integer'
      ? number
      : (typeof SHORT_FIELDS)[K]['type'] extends 'rules'
        ? RedirectRuleDto[]
        : (typeof SHORT_FIELDS)[K]['type'] extends 'team'
          ? TeamRefDto
          : (typeof SHORT_FIELDS)[K]['type'] extends 'tags'
            ? string[]
            : (typeof SHORT_FIELDS)[K]['type'] extends 'preview'
              ? SocialPreviewDto
              : (typeof SHORT_FIELDS)[K]['type'] extends 'qr-style'
                ? QrStyleDto
                : string)
  | (ShownSpecOf<K> extends { nullable: true } ? null : never);
type OwnerOnly = {
  [K in ShownField]: ShownSpecOf<K> extends { to: 'owner' } ? K : never;
}[ShownField];
/** The shown fields as the answer holds them: the owner's view's fields only there. */
export type ShortFieldsView = { [K in Exclude<ShownField, OwnerOnly>]: ShownValue<K> } & {
  [K in OwnerOnly]?: ShownValue<K>;
};

/** The OpenAPI schema of a shown field in the answer, from its row. */
function shownSchemaOf(spec: ShortFieldSpec, shown: ShownSpec): ApiPropertyOptions {
  if (spec.type === 'rules') {
    return {
      type: [RedirectRuleDto],
      required: shown.to !== 'owner',
      maxItems: MAX_RULES,
      description: described(shown),
    } as ApiPropertyOptions;
  }
  const description = described(shown);
  if (spec.type === 'tags') {
    return {
      type: 'array',
      items: { type: 'string' },
      maxItems: MAX_TAGS,
      required: shown.to !== 'owner',
      ...(description !== undefined ? { description } : {}),
      example: ['Herbst', 'Kampagne'],
    } as ApiPropertyOptions;
  }
  if (spec.type === 'preview') {
    return {
      type: SocialPreviewDto,
      nullable: true,
      required: shown.to !== 'owner',
      ...(description !== undefined ? { description } : {}),
    } as ApiPropertyOptions;
  }
  if (spec.type === 'qr-style') {
    return {
      type: QrStyleDto,
      nullable: true,
      required: shown.to !== 'owner',
      description: `${QR_STYLE_DESCRIPTION}; null: none (black on white, M, 4)${shown.to === 'owner' ? '; owners only' : ''}`,
    } as ApiPropertyOptions;
  }
  if (spec.type === 'team') {
    return {
      type: TeamRefDto,
      nullable: true,
      required: shown.to !== 'owner',
      ...(description !== undefined ? { description } : {}),
    } as ApiPropertyOptions;
  }
  return {
    type: spec.type === 'integer' ? 'integer' : 'string',
    ...(spec.type === 'date-time' ? { format: 'date-time' } : {}),
    ...(shown.nullable ? { nullable: true } : {}),
    ...(shown.to === 'owner' ? { required: false } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(shown.example !== undefined ? { example: shown.example } : {}),
  } as ApiPropertyOptions;
}

/** A shown field's description, with who sees it when that is only its owner. */
function described(shown: ShownSpec): string | undefined {
  if (shown.to !== 'owner') return shown.description;
  return `${shown.description ?? 'Set by its owner'}; owners only`;
}

/**
 * The properties of a short's answer in order: its own ones and the shown fields (the places
 * answers have always had; a new field comes among OTHER_FIELDS).
 */
export const SHORT_VIEW = placeFields<keyof ShortOwnProperties | ShownField, ShownField>(
  [
    'id',
    'code',
    'domain',
    'shortUrl',
    'name',
    'url',
    'hasPassword',
    'maxUses',
    'createdAt',
    'expireAt',
    'owner',
    'dangers',
    'uses',
    'visits',
    OTHER_FIELDS,
    'health',
  ],
  fieldsWith('shown'),
);

/**
 * The public shape of a short: its own properties and every field of the table with `shown`
 * (src/shared/short-fields.ts), in SHORT_VIEW's order. `url` is null when it is withheld
 * (password, maxUses). Never restate a field here: give its row `shown`.
 */
export const ShortDto = class ShortDto {} as new () => ShortOwnProperties & ShortFieldsView;
export type ShortDto = ShortOwnProperties & ShortFieldsView;

for (const name of SHORT_VIEW) {
  const spec: ShortFieldSpec | undefined = Object.hasOwn(SHORT_FIELDS, name)
    ? SHORT_FIELDS[name as ShownField]
    : undefined;
  const schema = spec?.shown
    ? shownSchemaOf(spec, spec.shown)
    : OWN_SCHEMAS[name as keyof ShortOwnProperties];
  if (!schema) throw new Error(`ShortDto: ${name} is neither a shown field nor its own property`);
  ApiProperty(schema)(ShortDto.prototype, name);
}
