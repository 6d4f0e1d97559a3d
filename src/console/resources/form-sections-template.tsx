/**
 * The object template of the generated forms (RJSF `ObjectFieldTemplate`): the antd theme's, and at
 * the root of a form whose schema declares sections (./form-schema `formSections`, passed as
 * `ui:options.sections`) one titled group per section, each laid out by the theme's template (two
 * columns on a wide screen, ./form-layout) with the properties of its fields in the section's order.
 */
import { Typography } from 'antd';
import { Templates } from '@rjsf/antd';
import { getUiOptions, type ObjectFieldTemplateProps } from '@rjsf/utils';
import type { ShownSection } from './form-schema';

const ThemeObject = Templates.ObjectFieldTemplate!;

export function FormSectionsTemplate(props: ObjectFieldTemplateProps) {
  const sections = getUiOptions(props.uiSchema).sections as ShownSection[] | undefined;
  if (!sections || sections.length === 0) return <ThemeObject {...props} />;
  return (
    <>
      {sections.map((section, i) => {
        const id = `${props.fieldPathId.$id}__section${i}`;
        return (
          <section key={section.title} className="form-section" aria-labelledby={`${id}__title`} data-testid="form-section">
            <Typography.Title level={4} id={`${id}__title`} className="form-section-title">
              {section.title}
            </Typography.Title>
            <ThemeObject
              {...props}
              title=""
              description=""
              fieldPathId={{ ...props.fieldPathId, $id: id }}
              properties={section.fields.flatMap((name) => props.properties.filter((p) => p.name === name))}
            />
          </section>
        );
      })}
    </>
  );
}
