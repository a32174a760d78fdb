import { Text, useAnimation } from "ink";
import { useTheme } from "../theme.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export function Spinner() {
  const { frame } = useAnimation({ interval: 100 });
  const { c } = useTheme();
  return <Text color={c("cyan")}>{FRAMES[frame % FRAMES.length]}</Text>;
}
