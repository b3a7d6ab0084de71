import type { ReactNode } from 'react'
import type { FieldProps } from './field-props'
import { DateInput } from './date-input'
import { PhoneInput } from './phone-input'
import { RadioField } from './radio-field'
import { SelectField } from './select-field'
import { TextField } from './text-field'
import { TextareaField } from './textarea-field'

export interface FieldInputProps extends FieldProps {
  onChoice: (value: string) => void
  optionLabels?: Record<string, string>
  // The address type needs an autocomplete the lead form does not own; pages supply it.
  renderAddress?: (props: FieldProps) => ReactNode
}

/** One component per field type; the switch is exhaustive, so a new type fails the build until handled. */
export function FieldInput({ onChoice, optionLabels, renderAddress, ...props }: FieldInputProps) {
  const type = props.field.type
  switch (type) {
    case 'text':
    case 'email':
      return <TextField {...props} />
    case 'tel':
      return <PhoneInput {...props} />
    case 'textarea':
      return <TextareaField {...props} />
    case 'select':
      return <SelectField {...props} optionLabels={optionLabels} />
    case 'radio':
      return <RadioField {...props} onChoice={onChoice} />
    case 'date':
      return <DateInput {...props} />
    case 'address':
      return renderAddress ? renderAddress(props) : <TextField {...props} />
    case 'hidden':
      return <input type="hidden" name={props.field.id} value={props.value} />
    default: {
      const unhandled: never = type
      throw new Error(`Unknown field type ${String(unhandled)}`)
    }
  }
}
