// An optional field as an object to spread: present when it has a value, absent (not undefined) when it has none.
export function opt<K extends string, T>(key: K, value: T | null | undefined): { [P in K]?: T } {
  return (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: T };
}

type Compact<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** An object with its undefined fields left out, as an optional field must be under exactOptionalPropertyTypes. */
export function compact<T extends object>(o: T): Compact<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Compact<T>;
}
