/**
 * Hands the manifests of menus/ (read and checked as the server reads them: src/server/manifests.ts)
 * to src/shared/manifest.ts, for tests and scripts that ask for menus without a server. Import it
 * before anything that reads a menu at load time.
 */
import { setManifests } from '../src/shared/manifest';
import { loadManifests } from '../src/server/manifests';

setManifests(loadManifests());
