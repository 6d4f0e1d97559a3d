/**
 * The stored facts of a user that route code checks before changing it (000 3 Profile/user; 001
 * 7.2), as ./user-repository.ts reads them. A module of its own, below both the repository and the
 * security events of the audit log (src/server/auth/security-events.ts), which the repository's
 * token calls reach: so neither imports the other (docs/architecture.md 'The picture').
 */

/** The stored facts route code checks before changing a user. */
export interface UserFacts {
  id: number;
  username: string;
  email: string;
  permission: string;
  assign_city: number[];
  school: number | null;
  email_verified: boolean;
}
