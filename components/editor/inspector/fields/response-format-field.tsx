"use client";

import type { FieldEditorProps } from "./field-props";
import { SchemaEditor } from "./json-schema/schema-editor";

/**
 * `responseFormat`: the JSON Schema the agent's answer follows (its fields are spread into the
 * output), as property rows or JSON, with an example answer. No properties means free text.
 */
export function ResponseFormatField(props: FieldEditorProps) {
  return (
    <SchemaEditor
      value={props.value}
      onChange={props.onChange}
      testId={`field-${props.field.key}`}
      label={props.field.label}
      emptyIsNone
      showExample
      referenceItems={props.referenceItems}
      envNames={props.envNames}
    />
  );
}
