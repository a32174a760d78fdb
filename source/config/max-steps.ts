/** The one range of model requests per turn, for `--max-steps` and the `maxSteps` setting. */
export const MAX_STEPS_MIN = 1;
export const MAX_STEPS_MAX = 10_000;
export const MAX_STEPS_REQUIREMENT = `must be a whole number from ${MAX_STEPS_MIN} to ${MAX_STEPS_MAX}`;
