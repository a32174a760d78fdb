// relay.config.ts
export default {
  hooks: {
    onOutput: async (output, ctx) => {
      // Check for error patterns
      if (output.includes('Error:') || output.includes('FAILED')) {
        return {
          sendMessage: {
            to: 'Coordinator',
            content: `Alert: ${ctx.agentName} encountered error in ${ctx.projectName}`
          },
          log: `Error detected: ${output.slice(0, 100)}`
        };
      }
      // No injection - just observing
    }
  }
};
