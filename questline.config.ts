// The repository's own implementations: the sample CRM action the sales demo
// flow calls. `npm start`, `questline serve|chat|run|test|validate` load this
// file from the working directory; a project of yours has its own.
import { defineConfig } from './server/project-config.ts';
import { sampleActions } from './examples/sample-actions.ts';

export default defineConfig({ actions: sampleActions });
