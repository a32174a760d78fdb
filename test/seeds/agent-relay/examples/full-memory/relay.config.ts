// relay.config.ts
export default {
  patterns: {
    memory: 'builtin',
  },

  hooks: {
    onSessionStart: async (ctx) => {
      // Search for relevant context based on current directory/project
      const projectMemories = await ctx.memory.search(
        `project: ${ctx.workingDir}`
      );
      const userPrefs = await ctx.memory.search('user preferences');

      if (projectMemories.length || userPrefs.length) {
        return {
          inject: `
[CONTEXT FROM MEMORY]
${projectMemories.map(m => `- ${m.content}`).join('\n')}

[USER PREFERENCES]
${userPrefs.map(m => `- ${m.content}`).join('\n')}
`
        };
      }
    },

    onSessionEnd: async (ctx) => {
      return {
        inject: `
[SESSION ENDING]
If you learned anything important, save it:
  @memory:save <what you learned>

Examples:
  @memory:save User prefers TypeScript over JavaScript
  @memory:save This project uses Prisma for database access
  @memory:save Auth tokens stored in httpOnly cookies
`
      };
    },
  },

  memory: {
    backend: 'mem0',
    config: {
      vectorStore: { provider: 'qdrant', url: 'http://localhost:6333' },
      embedder: { provider: 'ollama', model: 'nomic-embed-text' },
    },
  },
};
