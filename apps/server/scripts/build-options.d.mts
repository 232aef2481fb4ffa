import type { BuildOptions } from 'esbuild';

export const serverRoot: string;
export function serverBuildOptions(outdir: string): BuildOptions;
