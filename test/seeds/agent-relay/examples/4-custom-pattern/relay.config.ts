// relay.config.ts
export default {
  patterns: {
    ticket: {
      handler: async (target, message, ctx) => {
        // target = priority (high, medium, low)
        // message = ticket description

        // Just log and acknowledge - no external calls in default sandbox
        return {
          inject: `Ticket logged: [${target}] ${message.slice(0, 50)}...`,
          log: `ticket:${target} - ${message}`
        };
      }
    }
  }
};

// Agent usage:
// @ticket:high Fix authentication timeout in login flow
// @ticket:low Update README with new CLI options
