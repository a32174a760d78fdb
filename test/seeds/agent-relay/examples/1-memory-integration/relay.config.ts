// relay.config.ts
import type { RelayConfig } from 'agent-relay';

export default {
  hooks: {
    onSessionStart: async (ctx) => {
      // Inject project context from memory
      return {
        inject: `[CONTEXT] Working in ${ctx.projectName} (${ctx.workingDir})`,
        log: `Session started for ${ctx.agentName}`
      };
    },

    onSessionEnd: async (ctx) => {
      return {
        inject: `[SESSION END] Save learnings with @memory:save <insight>`
      };
    },

    onIdle: async (ctx) => {
      // Only prompt if idle for extended period
      if (ctx.idleSeconds > 60) {
        return {
          inject: '[STATUS] Are you blocked? Need help?'
        };
      }
    }
  }
} satisfies RelayConfig;
