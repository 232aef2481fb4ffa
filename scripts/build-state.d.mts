export const repoRoot: string;
export const builds: Record<'web' | 'server', { output: string; sources: string[]; command: string[] }>;
export function staleBuilds(): Array<'web' | 'server'>;
