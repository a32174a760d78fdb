import { createContext, useContext } from "react";

/** Colors used by the REPL. With NO_COLOR every color is dropped (bold/dim stay: they are not colors). */
export type ColorName = "red" | "green" | "yellow" | "blue" | "cyan" | "magenta" | "gray";

export interface Theme {
  color: boolean;
  now: () => number;
}

export const ThemeContext = createContext<Theme>({ color: true, now: Date.now });

export function useTheme(): Theme & { c: (name: ColorName) => ColorName | undefined } {
  const theme = useContext(ThemeContext);
  return { ...theme, c: (name) => (theme.color ? name : undefined) };
}

/** NO_COLOR (any non-empty value) turns color off, per no-color.org; FORCE_COLOR=0 too. */
export function colorEnabled(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR === "0") return false;
  if (env.TERM === "dumb") return false;
  return true;
}
