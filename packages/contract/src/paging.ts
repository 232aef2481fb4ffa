import * as z from 'zod';
import { PAGING } from './constants.js';

/** The page a paged list is asked for, 1 to PAGING.maxPage: one rule for every list. */
export const pageNumberSchema = z.coerce.number().int().min(1).max(PAGING.maxPage).default(1);

/** How many rows a page holds, 1 to PAGING.maxPageSize; `fallback` when the call leaves it out. */
export const pageSizeSchema = (fallback = 20) =>
  z.coerce.number().int().min(1).max(PAGING.maxPageSize).default(fallback);
