import { isolatedWebProject } from './vitest.config.js';

export default isolatedWebProject;
