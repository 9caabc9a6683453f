import { useId, type FormEvent, type ReactNode } from 'react';

interface Props {
  /** The box's label ('Search' when not given). */
  label?: string;
  placeholder: string;
  /** The search in the URL: the box starts with it, and a new one resets the box. */
  query: string;
  onSearch: (q: string) => void;
  className?: string;
  /** Landmark label when the form is the page's search on its own (not inside a role="search" panel). */
  landmark?: string;
  /** More buttons after Search (e.g. "Show all"). */
  children?: ReactNode;
}

/** A dashboard list's search box: submit (Enter or the button) searches the trimmed text. */
export function SearchForm({ label = 'Search', placeholder, query, onSearch, className, landmark, children }: Props) {
  const id = useId();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = new FormData(event.currentTarget).get('q');
    onSearch(typeof q === 'string' ? q.trim() : '');
  }
  return (
    <form
      key={query}
      role={landmark ? 'search' : undefined}
      aria-label={landmark}
      className={`flex items-end gap-2 ${className ?? ''}`}
      onSubmit={submit}
    >
      <div className="min-w-0 grow">
        <label className="label" htmlFor={id}>
          {label}
        </label>
        <input
          id={id}
          name="q"
          type="search"
          className="input"
          defaultValue={query}
          maxLength={200}
          placeholder={placeholder}
        />
      </div>
      <button type="submit" className="btn btn-primary">
        Search
      </button>
      {children}
    </form>
  );
}
