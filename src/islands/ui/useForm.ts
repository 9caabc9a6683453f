import { useState } from 'react';

/** Field values, per-field errors and the busy flag of a form; bind(name) wires a Field to them. */
export function useForm<V extends Record<string, string>>(initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const bind = (name: keyof V & string) => ({
    name,
    value: values[name],
    error: errors[name],
    disabled: busy,
    onChange: (e: { target: { value: string } }) => {
      setValues((v) => ({ ...v, [name]: e.target.value }));
      setErrors((old) => ({ ...old, [name]: '' }));
    },
  });

  return { values, setValues, errors, setErrors, busy, setBusy, bind };
}
