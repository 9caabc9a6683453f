import { useState } from 'react';

interface Options<V> {
  /**
   * Fields checked when they lose focus (the spec's blur rules): a message appears on blur or submit;
   * while the person types it goes as soon as the value passes (not on the next blur: a message that
   * vanished then would move the buttons under a click already on its way). Other fields clear their
   * message on input.
   */
  checks?: Partial<Record<keyof V & string, (value: string) => string | null>>;
  /** Fields are disabled while the form is sending (the default); false keeps them editable. */
  disableWhileBusy?: boolean;
}

/** Field values, per-field errors and the busy flag of a form; bind(name) wires a Field to them. */
export function useForm<V extends Record<string, string>>(
  initial: V,
  { checks = {}, disableWhileBusy = true }: Options<V> = {},
) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const bind = (name: keyof V & string) => {
    const check = checks[name];
    return {
      name,
      value: values[name],
      error: errors[name],
      disabled: disableWhileBusy && busy,
      onChange: (e: { target: { value: string } }) => {
        const value = e.target.value;
        setValues((v) => ({ ...v, [name]: value }));
        if (!check) setErrors((old) => ({ ...old, [name]: '' }));
        else setErrors((old) => (old[name] && !check(value) ? { ...old, [name]: '' } : old));
      },
      onBlur: check && (() => setErrors((old) => ({ ...old, [name]: check(values[name]) ?? '' }))),
    };
  };

  return { values, setValues, errors, setErrors, busy, setBusy, bind };
}

/** What bind(name) gives a Field. */
export type FieldBinding = ReturnType<ReturnType<typeof useForm>['bind']>;
