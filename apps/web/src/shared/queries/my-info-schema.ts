/** Loaded on demand: the home page asks for myInfo, and zod stays off its first download (issue 14). */
export { MyInfoSchema } from '@elex/contract';
