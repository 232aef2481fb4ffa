import { isolatedServerProject } from './vitest.config.js';

export default isolatedServerProject;
