import { ownModulesProject } from './vitest.config.js';

export default ownModulesProject;
