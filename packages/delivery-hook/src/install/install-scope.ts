/** Where hooks are registered: for every project of the user, or for one repository. */
export type InstallScope = 'user' | 'project';
